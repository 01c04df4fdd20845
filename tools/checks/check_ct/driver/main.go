// Command driver calls go/mldsa's API for check_ct, which builds it with the
// tag valgrind and runs it under valgrind's memcheck. Like BoringSSL's
// constant-time tests, it marks the caller's secrets undefined at the API
// boundary, before each call: the seed ξ it gives NewPrivateKey, the
// expanded key it gives NewPrivateKeyFromExpanded and SignExpanded, and
// everything crypto/rand returns (GenerateKey's ξ, hedged signing's rnd),
// through a reader that replaces crypto/rand.Reader. The keys that Sign,
// SignDeterministic, SignMu, HashSign, Bytes, ExpandedBytes, Equal and the
// crypto/mldsa bridge receive are made by NewPrivateKey and
// NewPrivateKeyFromExpanded from such marked bytes, so every secret field
// of a key is derived from them. The driver declares public (marks
// defined) only what the API returns that it checks: Equal's result and
// the encodings Bytes and ExpandedBytes return. Verify, HashVerify, VerifyMu
// and NewPublicKey, which handle nothing secret, run as a control.
//
// Usage: driver [-params 44,65,87] [-ops keygen,expanded,sign,...] [-n 1]
package main

import (
	"bytes"
	"crypto/rand"
	"crypto/sha3"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"unsafe"

	"github.com/vg-crypto/vg/go/mldsa"
)

// The main goroutine stays on the main thread, whose runtime structures are
// static: on threads the runtime starts later, its own structures, which it
// allocates from the heap it describes to valgrind, can read as undefined
// under memcheck and make everything computed after a switch of thread look
// secret.
func init() { runtime.LockOSThread() }

// allOps are the operations, in the order they run; bridge only in a build
// with Go 1.27 or later (bridge_go127.go).
var allOps = []string{"keygen", "expanded", "sign", "signdet", "signmu", "hashsign", "bytes", "expandedbytes", "equal", "verify", "bridge"}

// bridge runs the crypto/mldsa bridge's entry points; nil before Go 1.27.
var bridge func(k *keys, msg []byte, opts *mldsa.Options) error

func main() {
	params := flag.String("params", "44,65,87", "parameter sets (44, 65, 87)")
	ops := flag.String("ops", strings.Join(allOps, ","), "operations")
	n := flag.Int("n", 1, "operations of each kind per parameter set")
	flag.Parse()
	for _, op := range strings.Split(*ops, ",") {
		if !has(allOps, op) {
			fail("unknown operation %q", op)
		}
		if op == "bridge" && bridge == nil {
			fail("the operation bridge needs a build with Go 1.27 or later")
		}
	}
	rand.Reader = markingReader{rand.Reader}
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

// markingReader marks secret every byte it reads: crypto/rand's output is
// the randomness that GenerateKey and hedged signing draw.
type markingReader struct{ r io.Reader }

func (m markingReader) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	secret(p[:n])
	return n, err
}

// marked returns a copy of b marked secret, as the caller hands it to the
// API; b stays public, for the driver's checks.
func marked(b []byte) []byte {
	c := bytes.Clone(b)
	secret(c)
	return c
}

// publicBytes declares b public: an encoding the API returns, which the
// driver then compares.
func publicBytes(b []byte) []byte {
	if len(b) > 0 {
		public(unsafe.Pointer(&b[0]), uintptr(len(b)))
	}
	return b
}

// publicBool declares v public: a result the API returns.
func publicBool(v bool) bool {
	public(unsafe.Pointer(&v), unsafe.Sizeof(v))
	return v
}

// keys are the private keys of one round, both made from marked bytes, and
// the public bytes they were made from.
type keys struct {
	p        mldsa.Parameters
	seed     []byte // ξ, public copy
	expanded []byte // skEncode of the same key, public copy
	fromSeed *mldsa.PrivateKey
	fromExp  *mldsa.PrivateKey
	pk       *mldsa.PublicKey
}

func newKeys(p mldsa.Parameters, i int) (*keys, error) {
	k := &keys{p: p, seed: bytes.Repeat([]byte{byte(i + 1)}, mldsa.PrivateKeySize)}
	var err error
	if k.fromSeed, err = mldsa.NewPrivateKey(p, marked(k.seed)); err != nil {
		return nil, err
	}
	k.pk = k.fromSeed.PublicKey()
	// The expanded encoding, public: from a key made from the public seed.
	ref, err := mldsa.NewPrivateKey(p, k.seed)
	if err != nil {
		return nil, err
	}
	k.expanded = ref.ExpandedBytes()
	if k.fromExp, err = mldsa.NewPrivateKeyFromExpanded(p, marked(k.expanded)); err != nil {
		return nil, err
	}
	if !k.pk.Equal(k.fromExp.PublicKey()) || !k.pk.Equal(ref.PublicKey()) {
		return nil, fmt.Errorf("the keys from the seed and from the expanded key have different public keys")
	}
	return k, nil
}

// invalidExpanded gives NewPrivateKeyFromExpanded marked encodings that
// fail each of its checks (FIPS 204, Algorithm 25, and the consistency of
// t0 and tr): whether, and why, a key is invalid is public; its bytes are
// not.
func invalidExpanded(k *keys) error {
	size := len(k.expanded)
	for _, c := range []struct {
		name string
		off  int
		val  byte
	}{
		// The first coefficients of s1 all 1s: 2η < 2^bitlen(2η) − 1.
		{"an s1 coefficient out of range", 128, 0xff},
		{"t0 changed", size - 1, k.expanded[size-1] ^ 1},
		{"tr changed", 64, k.expanded[64] ^ 1},
	} {
		bad := bytes.Clone(k.expanded)
		bad[c.off] = c.val
		if _, err := mldsa.NewPrivateKeyFromExpanded(k.p, marked(bad)); err == nil {
			return fmt.Errorf("an expanded key with %s was accepted", c.name)
		}
		if _, err := mldsa.SignExpandedDeterministic(k.p, marked(bad), []byte("m"), nil); err == nil {
			return fmt.Errorf("SignExpandedDeterministic accepted an expanded key with %s", c.name)
		}
	}
	return nil
}

// mu returns μ = H(tr ‖ 0 ‖ |ctx| ‖ ctx ‖ msg, 64) (FIPS 204, Algorithm 2,
// line 10; Algorithm 7, line 6), tr = H(pk, 64), from public values.
func mu(pk *mldsa.PublicKey, ctx string, msg []byte) []byte {
	tr := sha3.SumSHAKE256(pk.Bytes(), 64)
	h := sha3.NewSHAKE256()
	h.Write(tr)
	h.Write([]byte{0, byte(len(ctx))})
	h.Write([]byte(ctx))
	h.Write(msg)
	out := make([]byte, 64)
	h.Read(out)
	return out
}

func run(p mldsa.Parameters, ops []string, n int) error {
	opts := &mldsa.Options{Context: "check_ct"}
	for i := 0; i < n; i++ {
		k, err := newKeys(p, i)
		if err != nil {
			return err
		}
		both := []*mldsa.PrivateKey{k.fromSeed, k.fromExp}
		msg := []byte(fmt.Sprintf("message %d", i))
		if has(ops, "keygen") {
			// ML-DSA.KeyGen (Algorithm 1): ξ from the marking reader.
			sk, err := mldsa.GenerateKey(p)
			if err != nil {
				return err
			}
			sig, err := sk.SignDeterministic(msg, opts)
			if err != nil {
				return err
			}
			if err := mldsa.Verify(sk.PublicKey(), msg, sig, opts); err != nil {
				return fmt.Errorf("keygen: %v", err)
			}
		}
		if has(ops, "expanded") {
			if err := invalidExpanded(k); err != nil {
				return fmt.Errorf("expanded: %v", err)
			}
		}
		if has(ops, "sign") {
			for _, sk := range both {
				sig, err := sk.Sign(nil, msg, opts)
				if err != nil {
					return err
				}
				if err := mldsa.Verify(k.pk, msg, sig, opts); err != nil {
					return fmt.Errorf("sign: %v", err)
				}
			}
			sig, err := mldsa.SignExpanded(p, marked(k.expanded), msg, opts)
			if err != nil {
				return err
			}
			if err := mldsa.Verify(k.pk, msg, sig, opts); err != nil {
				return fmt.Errorf("sign (SignExpanded): %v", err)
			}
		}
		if has(ops, "signdet") {
			var sigs [2][]byte
			for j, sk := range both {
				if sigs[j], err = sk.SignDeterministic(msg, opts); err != nil {
					return err
				}
			}
			if !bytes.Equal(sigs[0], sigs[1]) {
				return fmt.Errorf("signdet: the keys from the seed and from the expanded key sign differently")
			}
			one, err := mldsa.SignExpandedDeterministic(p, marked(k.expanded), msg, opts)
			if err != nil {
				return err
			}
			if !bytes.Equal(one, sigs[0]) {
				return fmt.Errorf("signdet: SignExpandedDeterministic signs differently from the keys")
			}
			if err := mldsa.Verify(k.pk, msg, sigs[0], opts); err != nil {
				return fmt.Errorf("signdet: %v", err)
			}
		}
		if has(ops, "signmu") {
			μ := mu(k.pk, opts.Context, msg)
			for _, sk := range both {
				sig, err := sk.SignMu(μ)
				if err != nil {
					return err
				}
				det, err := sk.SignMuDeterministic(μ)
				if err != nil {
					return err
				}
				for _, s := range [][]byte{sig, det} {
					if err := mldsa.VerifyMu(k.pk, μ, s); err != nil {
						return fmt.Errorf("signmu: %v", err)
					}
				}
				if err := mldsa.Verify(k.pk, msg, det, opts); err != nil {
					return fmt.Errorf("signmu: %v", err)
				}
			}
		}
		if has(ops, "hashsign") {
			// The i-th pre-hash of the list, or the next one strong
			// enough for the parameter set (HashSign refuses weaker ones).
			ph := mldsa.PreHash(1 + i%12)
			for ph.CheckStrength(p) != nil {
				ph = ph%mldsa.SHAKE256 + 1
			}
			for _, sk := range both {
				sig, err := sk.HashSign(msg, ph, opts)
				if err != nil {
					return err
				}
				det, err := sk.HashSignDeterministic(msg, ph, opts)
				if err != nil {
					return err
				}
				for _, s := range [][]byte{sig, det} {
					if err := mldsa.HashVerify(k.pk, msg, s, ph, opts); err != nil {
						return fmt.Errorf("hashsign: %v", err)
					}
				}
			}
		}
		if has(ops, "bytes") {
			if !bytes.Equal(publicBytes(k.fromSeed.Bytes()), k.seed) {
				return fmt.Errorf("bytes: Bytes is not the seed")
			}
			if k.fromExp.Bytes() != nil {
				return fmt.Errorf("bytes: a key from an expanded key has a seed")
			}
		}
		if has(ops, "expandedbytes") {
			for _, sk := range both {
				if !bytes.Equal(publicBytes(sk.ExpandedBytes()), k.expanded) {
					return fmt.Errorf("expandedbytes: ExpandedBytes is not the expanded key")
				}
			}
		}
		if has(ops, "equal") {
			// Seeds compared (both keys have one), expanded encodings
			// compared (one has none), and a different key.
			again, err := mldsa.NewPrivateKey(p, marked(k.seed))
			if err != nil {
				return err
			}
			other := bytes.Clone(k.seed)
			other[len(other)-1] ^= 1
			diff, err := mldsa.NewPrivateKey(p, marked(other))
			if err != nil {
				return err
			}
			for _, c := range []struct {
				a, b *mldsa.PrivateKey
				want bool
			}{
				{k.fromSeed, again, true}, {k.fromSeed, k.fromExp, true}, {k.fromExp, k.fromSeed, true},
				{k.fromExp, k.fromExp, true}, {k.fromSeed, diff, false}, {k.fromExp, diff, false},
			} {
				if publicBool(c.a.Equal(c.b)) != c.want {
					return fmt.Errorf("equal: Equal is not %v", c.want)
				}
			}
		}
		if has(ops, "verify") {
			// The control: nothing here is secret.
			pk, err := mldsa.NewPublicKey(p, k.pk.Bytes())
			if err != nil {
				return err
			}
			sig, err := k.fromSeed.SignDeterministic(msg, opts)
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
		if has(ops, "bridge") {
			if err := bridge(k, msg, opts); err != nil {
				return fmt.Errorf("bridge: %v", err)
			}
		}
	}
	return nil
}
