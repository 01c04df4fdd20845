package mldsa

import (
	"testing"
)

// TestAllocations pins the allocations of signing and verifying with keys
// already in memory: the signature is the one object that signing
// allocates, hedged or deterministic, ML-DSA or HashML-DSA with every
// pre-hash (none in the rejection loop), and also SignExpanded's (its key
// is in pooled room); Verify and HashVerify allocate nothing. Making a
// key allocates two objects, the key pair and one holding ŝ1 and the
// encodings (and Â, from the expanded encoding), on every path (the
// public key alone: two, itself and its encoding, also when it then
// verifies once); a key from its seed signs once allocating ŝ2 and t̂0
// and the signature, and keeps Â from its second use on.
func TestAllocations(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	if raceEnabled {
		t.Skip("under -race sync.Pool drops items at random: counts vary")
	}
	for _, params := range []Parameters{MLDSA44(), MLDSA65(), MLDSA87()} {
		sk, err := NewPrivateKey(params, make([]byte, 32))
		if err != nil {
			t.Fatal(err)
		}
		seed, enc, pkEnc := make([]byte, 32), sk.ExpandedBytes(), sk.PublicKey().Bytes()
		// A key made from its seed to sign once: the key pair and its
		// block, ŝ2 and t̂0, and the signature; Â is sampled into pooled
		// memory.
		oneSig := testing.AllocsPerRun(10, func() {
			var fresh *PrivateKey
			if fresh, err = NewPrivateKey(params, seed); err == nil {
				_, err = fresh.SignDeterministic([]byte("once"), nil)
			}
		})
		if err != nil || oneSig != 4 {
			t.Errorf("%v: NewPrivateKey and one signature allocate %.0f objects, want 4 (%v)", params, oneSig, err)
		}
		// The counts below are of a key that keeps Â (AllocsPerRun's
		// warm-up would be its first use).
		keepA(sk.pub, false)
		for _, c := range []struct {
			name string
			want float64
			op   func() error
		}{
			{"NewPrivateKey", 2, func() error { _, err := NewPrivateKey(params, seed); return err }},
			{"NewPrivateKeyFromExpanded", 2, func() error { _, err := NewPrivateKeyFromExpanded(params, enc); return err }},
			{"NewPublicKey", 2, func() error { _, err := NewPublicKey(params, pkEnc); return err }},
		} {
			var err error
			if n := testing.AllocsPerRun(10, func() { err = c.op() }); err != nil || n != c.want {
				t.Errorf("%v: %s allocates %.0f objects, want %.0f (%v)", params, c.name, n, c.want, err)
			}
		}
		msg := []byte("message")
		var sig []byte
		counts := map[string]float64{}
		for name, op := range map[string]func() error{
			"SignDeterministic": func() (err error) { sig, err = sk.SignDeterministic(msg, nil); return },
			"Sign":              func() (err error) { _, err = sk.Sign(nil, msg, nil); return },
			"HashSign":          func() (err error) { _, err = sk.HashSign(msg, SHAKE256, nil); return },
			"SignMu":            func() (err error) { _, err = sk.SignMu(make([]byte, 64)); return },
			// The key lives in pooled room: only the signature is new.
			"SignExpandedDeterministic": func() (err error) { _, err = SignExpandedDeterministic(params, enc, msg, nil); return },
		} {
			counts[name] = testing.AllocsPerRun(20, func() { err = op() })
			if err != nil {
				t.Fatal(name, err)
			}
			if counts[name] != 1 {
				t.Errorf("%v: %s allocates %.0f objects, want 1 (the signature)", params, name, counts[name])
			}
		}
		for ph := SHA224; ph <= SHAKE256; ph++ {
			if ph.CheckStrength(params) != nil {
				continue
			}
			var hsig []byte
			n := testing.AllocsPerRun(10, func() { hsig, err = sk.HashSignDeterministic(msg, ph, nil) })
			if err != nil || n != 1 {
				t.Errorf("%v: HashSignDeterministic with %v allocates %.0f objects, want 1 (%v)", params, ph, n, err)
			}
			n = testing.AllocsPerRun(10, func() { err = HashVerify(sk.PublicKey(), msg, hsig, ph, nil) })
			if err != nil || n != 0 {
				t.Errorf("%v: HashVerify with %v allocates %.0f objects, want none (%v)", params, ph, n, err)
			}
		}
		verifies := testing.AllocsPerRun(20, func() {
			err = Verify(sk.PublicKey(), msg, sig, nil)
		})
		if err != nil {
			t.Fatal(err)
		}
		if verifies != 0 {
			t.Errorf("%v: Verify allocates %.0f objects, want none", params, verifies)
		}
		// A key parsed to verify once samples Â into pooled memory: the
		// key and its encoding are all that is allocated.
		oneShot := testing.AllocsPerRun(20, func() {
			var pk *PublicKey
			if pk, err = NewPublicKey(params, pkEnc); err == nil {
				err = Verify(pk, msg, sig, nil)
			}
		})
		if err != nil || oneShot != 2 {
			t.Errorf("%v: NewPublicKey and one Verify allocate %.0f objects, want 2 (%v)", params, oneShot, err)
		}
		t.Logf("%v: allocations: %v, Verify %.0f", params, counts, verifies)
	}
}

// Scratch goes back to its pool zeroed: it held s2, t0, ρ″, c̃, y, z, w
// and h.
func TestScratchZeroedInPool(t *testing.T) {
	for _, k := range []int{4, 6, maxK} {
		work := getKeyScratch()
		for i := range work[:3*k] {
			work[i][0], work[i][255] = 1, 2
		}
		putKeyScratch(work, k)
		if *work != (keyScratch{}) {
			t.Errorf("k = %d: key scratch returned to the pool holds data", k)
		}
	}
	s := signScratchPool.Get().(*signScratch)
	s.in[70], s.acc.cTilde[63], s.cHat[9], s.acc.z[maxL-1][255], s.w[0][1], s.acc.h[maxK-1][0], s.work[maxSignZWork-1][255] = 1, 2, 3, 4, 5, 6, 7
	s.seed[127], s.state[199] = 8, 9
	putSignScratch(s)
	if *s != (signScratch{}) {
		t.Error("sign scratch returned to the pool holds data")
	}
}
