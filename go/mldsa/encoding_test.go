package mldsa

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/vg-crypto/vg/Spec/fips204"
)

// TestPackingsAgainstSpec compares every bit packing ML-DSA uses with Spec:
// t1 (10 bits), w1 (6 and 4), s (3 and 4), t0 (13), z (18 and 20), in both
// directions.
func TestPackingsAgainstSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for _, width := range []int{4, 6, 10} {
		for it := 0; it < 20; it++ {
			var w ringElement
			for i := range w {
				w[i] = fieldElement(rng.Uint32N(1 << width))
			}
			got := make([]byte, 32*width)
			simpleBitPack(got, &w, width)
			want := fips204.SimpleBitPack(toSpec(&w), 1<<width-1)
			if !bytes.Equal(got, want) {
				t.Fatalf("SimpleBitPack width %d differs from Spec", width)
			}
			var back ringElement
			simpleBitUnpack(&back, got, width)
			if back != w || back != fromSpec(fips204.SimpleBitUnpack(got, 1<<width-1)) {
				t.Fatalf("SimpleBitUnpack width %d", width)
			}
		}
	}
	signed := []struct{ a, b, width int }{
		{2, 2, 3}, {4, 4, 4}, {1<<12 - 1, 1 << 12, 13}, {1<<17 - 1, 1 << 17, 18}, {1<<19 - 1, 1 << 19, 20},
	}
	for _, s := range signed {
		for it := 0; it < 20; it++ {
			var w ringElement
			for i := range w {
				w[i] = modQ(int64(rng.IntN(s.a+s.b+1) - s.a))
			}
			if it == 0 {
				w[0], w[1] = modQ(int64(-s.a)), fieldElement(s.b)
			}
			got := make([]byte, 32*s.width)
			bitPackSigned(got, &w, s.width, fieldElement(s.b))
			var sw fips204.Poly
			for i := range w {
				v := int64(w[i])
				if v > (q-1)/2 {
					v -= q
				}
				sw[i] = int32(v)
			}
			if !bytes.Equal(got, fips204.BitPack(sw, s.a, s.b)) {
				t.Fatalf("BitPack(%d, %d) differs from Spec", s.a, s.b)
			}
			var back ringElement
			bitUnpackSigned(&back, got, s.width, fieldElement(s.b))
			if back != w || back != fromSpec(fips204.BitUnpack(got, s.a, s.b)) {
				t.Fatalf("BitUnpack(%d, %d)", s.a, s.b)
			}
		}
	}
	// Out-of-range encodings of s are caught.
	for _, η := range []int{2, 4} {
		width := 3
		if η == 4 {
			width = 4
		}
		for v := 0; v < 1<<width; v++ {
			var w ringElement
			w[rng.IntN(n256)] = fieldElement(v)
			enc := make([]byte, 32*width)
			simpleBitPack(enc, &w, width)
			var out ringElement
			bad := bitUnpackSignedChecked(&out, enc, width, fieldElement(η), uint32(2*η))
			if (bad == 1) != (v > 2*η) {
				t.Fatalf("η = %d: packed value %d flagged %d", η, v, bad)
			}
		}
	}
}

// TestHintsAgainstSpec packs random hints and unpacks random and mutated
// encodings, comparing acceptance and result with Spec.
func TestHintsAgainstSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, ps := range allParams {
		p, sp := ps.p.p, ps.spec
		for it := 0; it < 300; it++ {
			h := make([]ringElement, p.k)
			count := rng.IntN(p.ω + 1)
			for c := 0; c < count; c++ {
				h[rng.IntN(p.k)][rng.IntN(n256)] = 1
			}
			enc := make([]byte, p.ω+p.k)
			hintBitPack(enc, h, p.ω)
			sh := make([]fips204.Poly, p.k)
			for i := range h {
				sh[i] = toSpec(&h[i])
			}
			if !bytes.Equal(enc, fips204.HintBitPack(sp, sh)) {
				t.Fatal("HintBitPack differs from Spec")
			}
			// Mutate: a random byte, sometimes none.
			if it%3 != 0 {
				enc[rng.IntN(len(enc))] = byte(rng.Uint32())
			}
			got := make([]ringElement, p.k)
			ok := hintBitUnpack(got, enc, p.ω)
			want, err := fips204.HintBitUnpack(sp, enc)
			if ok != (err == nil) {
				t.Fatalf("%s: HintBitUnpack(%x) accepts %v, Spec %v", p.name, enc, ok, err)
			}
			if ok {
				for i := range got {
					if got[i] != fromSpec(want[i]) {
						t.Fatal("HintBitUnpack differs from Spec")
					}
				}
			}
		}
	}
}
