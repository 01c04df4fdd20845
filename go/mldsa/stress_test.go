package mldsa_test

import (
	"bytes"
	"flag"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vg-crypto/vg/go/mldsa"
)

var stressTime = flag.Duration("stress", 300*time.Millisecond, "how long TestConcurrentUse runs (CI runs it for seconds under -race)")

// TestConcurrentUse shares one PrivateKey and one PublicKey between 32
// goroutines that sign, sign deterministically, hash-sign and verify at the
// same time, and checks every signature: each verifies, a deterministic one
// equals the one made before the goroutines started, and a corrupted one
// is rejected. Run under -race it also checks that the keys' shared state
// is only read.
func TestConcurrentUse(t *testing.T) {
	const goroutines = 32
	sk, err := mldsa.NewPrivateKey(mldsa.MLDSA65(), bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	pk, err := mldsa.NewPublicKey(mldsa.MLDSA65(), sk.PublicKey().Bytes())
	if err != nil {
		t.Fatal(err)
	}
	// Reference deterministic signatures, made before any sharing.
	const msgs = 8
	var want [msgs][]byte
	opts := &mldsa.Options{Context: "stress"}
	for i := range want {
		if want[i], err = sk.SignDeterministic(msg(i), opts); err != nil {
			t.Fatal(err)
		}
	}
	var ops [4]atomic.Int64
	var wg sync.WaitGroup
	deadline := time.Now().Add(*stressTime)
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; time.Now().Before(deadline); i++ {
				op := (g + i) % 4
				if err := stressOp(op, sk, pk, g, i, &want, opts); err != nil {
					errs <- fmt.Errorf("goroutine %d, iteration %d: %v", g, i, err)
					return
				}
				ops[op].Add(1)
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d Sign, %d SignDeterministic, %d HashSign, %d Verify of stored signatures", ops[0].Load(), ops[1].Load(), ops[2].Load(), ops[3].Load())
	for op := range ops {
		if ops[op].Load() == 0 {
			t.Errorf("operation %d never ran", op)
		}
	}
}

func msg(i int) []byte { return []byte(fmt.Sprintf("message %d", i)) }

func stressOp(op int, sk *mldsa.PrivateKey, pk *mldsa.PublicKey, g, i int, want *[8][]byte, opts *mldsa.Options) error {
	m := msg(g*1000 + i)
	switch op {
	case 0: // hedged Sign, verified with both public keys
		sig, err := sk.Sign(nil, m, opts)
		if err != nil {
			return err
		}
		if err := mldsa.Verify(pk, m, sig, opts); err != nil {
			return fmt.Errorf("Sign: %v", err)
		}
		return mldsa.Verify(sk.PublicKey(), m, sig, opts)
	case 1: // deterministic Sign equals the reference
		j := (g + i) % len(want)
		sig, err := sk.SignDeterministic(msg(j), opts)
		if err != nil {
			return err
		}
		if !bytes.Equal(sig, want[j]) {
			return fmt.Errorf("SignDeterministic of message %d differs from the one made before sharing", j)
		}
		return nil
	case 2: // HashSign with each pre-hash strong enough for the key in turn
		ph := mldsa.PreHash(1 + (g+i)%12)
		if ph.CheckStrength(pk.Parameters()) != nil {
			ph = mldsa.SHAKE256
		}
		sig, err := sk.HashSign(m, ph, opts)
		if err != nil {
			return err
		}
		if err := mldsa.HashVerify(pk, m, sig, ph, opts); err != nil {
			return fmt.Errorf("HashSign with %v: %v", ph, err)
		}
		return nil
	default: // Verify of a stored signature, and of a corrupted copy
		j := (g + i) % len(want)
		if err := mldsa.Verify(pk, msg(j), want[j], opts); err != nil {
			return fmt.Errorf("Verify: %v", err)
		}
		bad := bytes.Clone(want[j])
		bad[(g*131+i)%len(bad)] ^= 1 << (i % 8)
		if mldsa.Verify(pk, msg(j), bad, opts) == nil {
			return fmt.Errorf("Verify accepted a corrupted signature")
		}
		return nil
	}
}
