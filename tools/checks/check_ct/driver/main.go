// Command driver runs key generation, signing and verification for
// check_ct, which builds it with the tag valgrind and runs it under
// valgrind's memcheck. The library marks its secret inputs (the seed ξ,
// the private key and rnd) undefined there; the driver only calls the API
// and checks the results.
//
// Usage: driver [-params 44,65,87] [-ops keygen,sign,hashsign,verify] [-n 1]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/vg-crypto/vg/go/mldsa"
)

// The main goroutine stays on the main thread, whose runtime structures are
// static: on threads the runtime starts later, its own structures, which it
// allocates from the heap it describes to valgrind, can read as undefined
// under memcheck and make everything computed after a switch of thread look
// secret.
func init() { runtime.LockOSThread() }

func main() {
	params := flag.String("params", "44,65,87", "parameter sets (44, 65, 87)")
	ops := flag.String("ops", "keygen,sign,hashsign,verify", "operations")
	n := flag.Int("n", 1, "operations of each kind per parameter set")
	flag.Parse()
	fmt.Println("implementation:", mldsa.Implementation())
	for _, ps := range strings.Split(*params, ",") {
		var p mldsa.Parameters
		switch ps {
		case "44":
			p = mldsa.MLDSA44()
		case "65":
			p = mldsa.MLDSA65()
		case "87":
			p = mldsa.MLDSA87()
		default:
			fail("unknown parameter set %q", ps)
		}
		if err := run(p, strings.Split(*ops, ","), *n); err != nil {
			fail("%v: %v", p, err)
		}
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "driver: "+format+"\n", args...)
	os.Exit(2)
}

func has(ops []string, op string) bool {
	for _, o := range ops {
		if o == op {
			return true
		}
	}
	return false
}

func run(p mldsa.Parameters, ops []string, n int) error {
	opts := &mldsa.Options{Context: "check_ct"}
	for i := 0; i < n; i++ {
		// Key generation from a seed (ML-DSA.KeyGen_internal); every
		// operation below uses a key made this way.
		seed := bytes.Repeat([]byte{byte(i + 1)}, mldsa.PrivateKeySize)
		sk, err := mldsa.NewPrivateKey(p, seed)
		if err != nil {
			return err
		}
		msg := []byte(fmt.Sprintf("message %d", i))
		if has(ops, "sign") {
			sig, err := sk.Sign(nil, msg, opts)
			if err != nil {
				return err
			}
			if err := mldsa.Verify(sk.PublicKey(), msg, sig, opts); err != nil {
				return fmt.Errorf("sign: %v", err)
			}
		}
		var hsig []byte
		if has(ops, "hashsign") || has(ops, "verify") {
			ph := mldsa.PreHash(1 + i%12)
			hsig, err = sk.HashSign(msg, ph, opts)
			if err != nil {
				return err
			}
			if err := mldsa.HashVerify(sk.PublicKey(), msg, hsig, ph, opts); err != nil {
				return fmt.Errorf("hash-sign: %v", err)
			}
		}
		if has(ops, "verify") {
			// The control: nothing here is secret.
			pk, err := mldsa.NewPublicKey(p, sk.PublicKey().Bytes())
			if err != nil {
				return err
			}
			sig, err := sk.SignDeterministic(msg, opts)
			if err != nil {
				return err
			}
			if err := mldsa.Verify(pk, msg, sig, opts); err != nil {
				return fmt.Errorf("verify: %v", err)
			}
			sig[len(sig)/2] ^= 1
			if mldsa.Verify(pk, msg, sig, opts) == nil {
				return fmt.Errorf("verify accepted a corrupted signature")
			}
		}
	}
	return nil
}
