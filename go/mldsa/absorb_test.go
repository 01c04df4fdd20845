package mldsa

import (
	"bytes"
	"crypto/sha3"
	"math/rand/v2"
	"testing"

	"github.com/vg-crypto/vg/Spec/fips202"
)

// sumShake256 is H(m, 64) through the package's sponge, m written in the
// pieces split gives (lengths, summing to len(m)).
func sumShake256(m []byte, split []int) []byte {
	h := newShake256()
	for _, n := range split {
		h.write(m[:n])
		m = m[n:]
	}
	h.write(m)
	out := make([]byte, 64)
	h.read(out)
	return out
}

// TestShake256Lengths compares SHAKE256 of every length up to three
// blocks and one byte, and of random longer ones, with Spec's SHAKE256
// and the standard library's.
func TestShake256Lengths(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 1))
	lengths := []int{}
	for n := 0; n <= 3*shake256Rate+1; n++ {
		lengths = append(lengths, n)
	}
	for i := 0; i < 20; i++ {
		lengths = append(lengths, 3*shake256Rate+2+rng.IntN(1<<14))
	}
	for _, n := range lengths {
		m := randBytes(rng, n)
		got := sumShake256(m, nil)
		if want := fips202.SumSHAKE256(m, 64); !bytes.Equal(got, want) {
			t.Fatalf("length %d: %x, Spec gives %x", n, got, want)
		}
		if want := sha3.SumSHAKE256(m, 64); !bytes.Equal(got, want) {
			t.Fatalf("length %d: %x, crypto/sha3 gives %x", n, got, want)
		}
	}
}

// TestShake256Splits writes a message of three blocks and a few bytes in
// every split into two writes, and into three writes at every pair of
// cut points of a shorter one, then in random pieces with single bytes
// mixed in (writeByte), against crypto/sha3.
func TestShake256Splits(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 2))
	m := randBytes(rng, 3*shake256Rate+5)
	want := sha3.SumSHAKE256(m, 64)
	for i := 0; i <= len(m); i++ {
		if got := sumShake256(m, []int{i}); !bytes.Equal(got, want) {
			t.Fatalf("split at %d: %x, want %x", i, got, want)
		}
	}
	short := m[:shake256Rate+9]
	wantShort := sha3.SumSHAKE256(short, 64)
	for i := 0; i <= len(short); i++ {
		for j := 0; i+j <= len(short); j++ {
			if got := sumShake256(short, []int{i, j}); !bytes.Equal(got, wantShort) {
				t.Fatalf("split at %d and %d: %x, want %x", i, i+j, got, wantShort)
			}
		}
	}
	for k := 0; k < 200; k++ {
		h := newShake256()
		rest := m
		for len(rest) > 0 {
			if rng.IntN(3) == 0 {
				h.writeByte(rest[0])
				rest = rest[1:]
				continue
			}
			n := rng.IntN(min(len(rest), 2*shake256Rate) + 1)
			h.write(rest[:n])
			rest = rest[n:]
		}
		got := make([]byte, 64)
		h.read(got)
		if !bytes.Equal(got, want) {
			t.Fatalf("random pieces, run %d: %x, want %x", k, got, want)
		}
	}
}

// TestMuHasher compares μ from MuHasher, written in random pieces, and
// from HashMu with computeMu and with crypto/sha3 over tr ‖ M′ built
// whole (Algorithm 2, line 10; Algorithm 4, line 23).
func TestMuHasher(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 3))
	sk, err := NewPrivateKey(MLDSA44(), randBytes(rng, 32))
	if err != nil {
		t.Fatal(err)
	}
	pk := sk.PublicKey()
	tr := sha3.SumSHAKE256(pk.Bytes(), 64)
	if !bytes.Equal(tr, pk.tr[:]) {
		t.Fatalf("tr = %x, crypto/sha3 gives %x", pk.tr, tr)
	}
	for k := 0; k < 50; k++ {
		ctx := string(randBytes(rng, rng.IntN(256)))
		msg := randBytes(rng, rng.IntN(4*shake256Rate))
		m, err := NewMuHasher(pk, ctx)
		if err != nil {
			t.Fatal(err)
		}
		for rest := msg; len(rest) > 0; {
			n := rng.IntN(len(rest) + 1)
			m.Write(rest[:n])
			rest = rest[n:]
		}
		got, err := m.Mu()
		if err != nil {
			t.Fatal(err)
		}
		whole := append(append(append(append([]byte{}, tr...), 0, byte(len(ctx))), ctx...), msg...)
		if want := sha3.SumSHAKE256(whole, 64); !bytes.Equal(got[:], want) {
			t.Fatalf("μ = %x, crypto/sha3 of tr ‖ M′ gives %x", got, want)
		}
		if want := computeMu(&pk.tr, 0, ctx, nil, msg); got != want {
			t.Fatalf("μ = %x, computeMu gives %x", got, want)
		}
		ph := PreHash(1 + rng.IntN(int(SHAKE256)))
		var d [64]byte
		digest := ph.digest(msg, &d)
		hm, err := HashMu(pk, digest, ph, ctx)
		if err != nil {
			t.Fatal(err)
		}
		whole = append(append(append(append(append([]byte{}, tr...), 1, byte(len(ctx))), ctx...), ph.oid()...), digest...)
		if want := sha3.SumSHAKE256(whole, 64); !bytes.Equal(hm[:], want) {
			t.Fatalf("%v: μ = %x, crypto/sha3 of tr ‖ M′ gives %x", ph, hm, want)
		}
		if want, _ := hashMu(&pk.tr, msg, ph, &Options{Context: ctx}); hm != want {
			t.Fatalf("%v: HashMu = %x, hashMu gives %x", ph, hm, want)
		}
	}
	var zero MuHasher
	if _, err := zero.Write([]byte{1}); err == nil {
		t.Error("zero MuHasher accepts a write")
	}
	if _, err := NewMuHasher(pk, string(make([]byte, 256))); err == nil {
		t.Error("NewMuHasher accepts a 256-byte context")
	}
	if _, err := HashMu(pk, make([]byte, 31), SHA256, ""); err == nil {
		t.Error("HashMu accepts a 31-byte SHA2-256 digest")
	}
}
