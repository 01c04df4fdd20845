package mldsa

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// variantChecks run each variant of a routine against the generic one on
// random inputs; a check returns an error if they differ.
var variantChecks = []variantCheck{
	checkOf(keccakF1600Routine, func(rng *rand.Rand, g, f func(*[25]uint64)) error {
		var a [25]uint64
		for i := range a {
			a[i] = rng.Uint64()
		}
		b := a
		g(&a)
		f(&b)
		if a != b {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(keccakF1600x4Routine, func(rng *rand.Rand, g, f func(*[100]uint64)) error {
		var a [100]uint64
		for i := range a {
			a[i] = rng.Uint64()
		}
		b := a
		g(&a)
		f(&b)
		if a != b {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(keccakF1600x8Routine, func(rng *rand.Rand, g, f func(*[200]uint64)) error {
		var a [200]uint64
		for i := range a {
			a[i] = rng.Uint64()
		}
		b := a
		g(&a)
		f(&b)
		if a != b {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(shake256AbsorbBlockRoutine, func(rng *rand.Rand, g, f func(*[25]uint64, *[shake256Rate]byte)) error {
		var a [25]uint64
		for i := range a {
			a[i] = rng.Uint64()
		}
		var block [shake256Rate]byte
		copy(block[:], randBytes(rng, shake256Rate))
		b, in := a, block
		g(&a, &block)
		f(&b, &in)
		if a != b || in != block {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(shake256AbsorbRoutine, func(rng *rand.Rand, g, f func(*[25]uint64, *[1088]byte, *uint64)) error {
		var a [25]uint64
		for i := range a {
			a[i] = rng.Uint64()
		}
		var in [absorbMaxBlocks * shake256Rate]byte
		copy(in[:], randBytes(rng, len(in)))
		n := uint64(rng.IntN(absorbMaxBlocks + 2))
		if rng.IntN(8) == 0 {
			n = rng.Uint64()
		}
		b, in2, n2 := a, in, n
		g(&a, &in, &n)
		f(&b, &in2, &n2)
		if a != b || in != in2 || n != n2 {
			return fmt.Errorf("differs for n = %d", n)
		}
		return nil
	}),
	checkOf(shake256FinishRoutine, func(rng *rand.Rand, g, f func(*[25]uint64, *[136]byte, *uint64, *[64]byte)) error {
		var a [25]uint64
		for i := range a {
			a[i] = rng.Uint64()
		}
		var tail [shake256Rate]byte
		copy(tail[:], randBytes(rng, shake256Rate))
		n := uint64(rng.IntN(shake256Rate + 2))
		if rng.IntN(8) == 0 {
			n = rng.Uint64()
		}
		var out [finishOut]byte
		copy(out[:], randBytes(rng, finishOut))
		b, tail2, n2, out2 := a, tail, n, out
		g(&a, &tail, &n, &out)
		f(&b, &tail2, &n2, &out2)
		if a != b || tail != tail2 || n != n2 || out != out2 {
			return fmt.Errorf("differs for n = %d", n)
		}
		return nil
	}),
	checkOf(rejNTTPolyRoutine, func(rng *rand.Rand, g, f func(*ringElement, *[34]byte) bool) error {
		var seed [34]byte
		copy(seed[:], randBytes(rng, 34))
		var a, b ringElement
		if g(&a, &seed) != f(&b, &seed) || a != b {
			return fmt.Errorf("differs on seed %x", seed)
		}
		return nil
	}),
	checkOf(rejNTTPolyx4Routine, func(rng *rand.Rand, g, f func(*[4]*ringElement, *[4][34]byte) bool) error {
		var seeds [4][34]byte
		for j := range seeds {
			copy(seeds[j][:], randBytes(rng, 34))
		}
		var a, b [4]ringElement
		pa := [4]*ringElement{&a[0], &a[1], &a[2], &a[3]}
		pb := [4]*ringElement{&b[0], &b[1], &b[2], &b[3]}
		if g(&pa, &seeds) != f(&pb, &seeds) || a != b {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(rejNTTPolyx8Routine, func(rng *rand.Rand, g, f func(*[8]*ringElement, *[8][34]byte) bool) error {
		var seeds [8][34]byte
		for j := range seeds {
			copy(seeds[j][:], randBytes(rng, 34))
		}
		var a, b [8]ringElement
		var pa, pb [8]*ringElement
		for j := range pa {
			pa[j], pb[j] = &a[j], &b[j]
		}
		if g(&pa, &seeds) != f(&pb, &seeds) || a != b {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(expandARoutine, func(rng *rand.Rand, g, f func([]ringElement, *[32]byte, int, int) error) error {
		var ρ [32]byte
		copy(ρ[:], randBytes(rng, 32))
		for _, kl := range [][2]int{{4, 4}, {6, 5}, {8, 7}} {
			k, l := kl[0], kl[1]
			a, b := make([]ringElement, k*l), make([]ringElement, k*l)
			if err := g(a, &ρ, k, l); err != nil {
				return err
			}
			if err := f(b, &ρ, k, l); err != nil {
				return fmt.Errorf("k = %d, ℓ = %d: %v", k, l, err)
			}
			for e := range a {
				if a[e] != b[e] {
					return fmt.Errorf("k = %d, ℓ = %d: entry %d differs", k, l, e)
				}
			}
			if err := f(b[:k*l-1], &ρ, k, l); err == nil {
				return fmt.Errorf("k = %d, ℓ = %d: a short Â was accepted", k, l)
			}
		}
		return nil
	}),
	checkOf(nttRoutine, polyMapCheck),
	checkOf(nttInverseRoutine, polyMapCheck),
	checkOf(nttInverseMontRoutine, polyMapCheck),
	checkOf(fromMontgomeryPolyRoutine, polyMapCheck),
	checkOf(multiplyNTTRoutine, func(rng *rand.Rand, g, f func(out, a, b *ringElement)) error {
		a, b := randomPoly(rng), randomPoly(rng)
		var x, y ringElement
		g(&x, &a, &b)
		f(&y, &a, &b)
		if x != y {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(multiplyAccNTTRoutine, func(rng *rand.Rand, g, f func(out *ringElement, a, b []ringElement)) error {
		n := 1 + rng.IntN(8)
		a, b := make([]ringElement, n), make([]ringElement, n)
		for j := range a {
			a[j], b[j] = randomPoly(rng), randomPoly(rng)
		}
		var x, y ringElement
		g(&x, a, b)
		f(&y, a, b)
		if x != y {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(polyAddRoutine, pairMapCheck),
	checkOf(polySubRoutine, pairMapCheck),
	checkOf(toMontgomeryPolyRoutine, edgyMapCheck),
	checkOf(toMontgomeryT1PolyRoutine, edgyMapCheck),
	checkOf(normExceedsRoutine, func(rng *rand.Rand, g, f func(*ringElement, uint32) uint32) error {
		a := randomPoly(rng)
		bound := 1 + rng.Uint32N(q/2)
		if g(&a, bound) != f(&a, bound) {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(power2RoundPolyRoutine, func(rng *rand.Rand, g, f func(t1, t0, t *ringElement)) error {
		a := randomPoly(rng)
		var x1, x0, y1, y0 ringElement
		g(&x1, &x0, &a)
		f(&y1, &y0, &a)
		if x1 != y1 || x0 != y0 {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(highBitsPolyRoutine, func(rng *rand.Rand, g, f func(w1, w *ringElement, γ2 uint32)) error {
		a := randomPoly(rng)
		γ2 := []uint32{(q - 1) / 88, (q - 1) / 32}[rng.IntN(2)]
		var x, y ringElement
		g(&x, &a, γ2)
		f(&y, &a, γ2)
		if x != y {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(makeHintPolyRoutine, func(rng *rand.Rand, g, f func(h, z, r *ringElement, γ2 uint32) uint32) error {
		γ2 := []uint32{(q - 1) / 88, (q - 1) / 32}[rng.IntN(2)]
		z, r := randomPoly(rng), randomPoly(rng)
		for i := range z {
			z[i] = modQ(int64(rng.IntN(2*int(γ2)+1)) - int64(γ2))
		}
		var x, y ringElement
		if g(&x, &z, &r, γ2) != f(&y, &z, &r, γ2) || x != y {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(useHintPolyRoutine, func(rng *rand.Rand, g, f func(w1, h, r *ringElement, γ2 uint32)) error {
		γ2 := []uint32{(q - 1) / 88, (q - 1) / 32}[rng.IntN(2)]
		r := randomPoly(rng)
		var h ringElement
		for i := range h {
			h[i] = fieldElement(rng.IntN(2))
		}
		var x, y ringElement
		g(&x, &h, &r, γ2)
		f(&y, &h, &r, γ2)
		if x != y {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(rejBoundedPolyRoutine, func(rng *rand.Rand, g, f func(*ringElement, *[64]byte, uint16, int) bool) error {
		var seed [64]byte
		copy(seed[:], randBytes(rng, 64))
		r, η := uint16(rng.Uint32()), []int{2, 4}[rng.IntN(2)]
		var x, y ringElement
		if g(&x, &seed, r, η) != f(&y, &seed, r, η) || x != y {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(rejBoundedPolyx4Routine, func(rng *rand.Rand, g, f func(*[4]*ringElement, *[64]byte, *[4]uint16, int) bool) error {
		var seed [64]byte
		copy(seed[:], randBytes(rng, 64))
		var r [4]uint16
		for j := range r {
			r[j] = uint16(rng.Uint32())
		}
		η := []int{2, 4}[rng.IntN(2)]
		var a, b [4]ringElement
		pa := [4]*ringElement{&a[0], &a[1], &a[2], &a[3]}
		pb := [4]*ringElement{&b[0], &b[1], &b[2], &b[3]}
		// Lanes left out (nil) a quarter of the time, as ExpandS pads its
		// last group.
		left := 0
		if rng.IntN(4) == 0 {
			left = rng.IntN(16)
		}
		for j := range pa {
			if left>>j&1 == 1 {
				pa[j], pb[j] = nil, nil
			}
		}
		if g(&pa, &seed, &r, η) != f(&pb, &seed, &r, η) || a != b {
			return fmt.Errorf("differs (lanes left out: %04b)", left)
		}
		return nil
	}),
	checkOf(trHashRoutine, func(rng *rand.Rand, g, f func(*[64]byte, []byte)) error {
		// The three public key sizes, and one of no parameter set.
		pk := randBytes(rng, []int{1312, 1952, 2592, 100}[rng.IntN(4)])
		var x, y [64]byte
		g(&x, pk)
		f(&y, pk)
		if x != y {
			return fmt.Errorf("differs for %d bytes", len(pk))
		}
		return nil
	}),
	checkOf(keyGenSeedRoutine, func(rng *rand.Rand, g, f func(*[128]byte, *[32]byte, int, int)) error {
		// The (k, ℓ) of each parameter set, and one of none.
		kl := [][2]int{{4, 4}, {6, 5}, {8, 7}, {5, 5}}[rng.IntN(4)]
		var ξ [32]byte
		copy(ξ[:], randBytes(rng, 32))
		var x, y [128]byte
		g(&x, &ξ, kl[0], kl[1])
		f(&y, &ξ, kl[0], kl[1])
		if x != y {
			return fmt.Errorf("differs for (k, ℓ) = %v", kl)
		}
		return nil
	}),
	checkOf(keyGenPkRoutine, func(rng *rand.Rand, g, f func([]byte, []ringElement, []ringElement, *[32]byte)) error {
		// The k of each parameter set, and one of none.
		k := []int{4, 6, 8, 3}[rng.IntN(4)]
		t := make([]ringElement, k)
		for i := range t {
			for j := range t[i] {
				t[i][j] = fieldElement(rng.Uint32N(q))
			}
		}
		var ρ [32]byte
		copy(ρ[:], randBytes(rng, 32))
		pkG, pkF := make([]byte, 32+320*k), make([]byte, 32+320*k)
		t0G, t0F := make([]ringElement, k), make([]ringElement, k)
		g(pkG, t0G, t, &ρ)
		f(pkF, t0F, t, &ρ)
		if !bytes.Equal(pkG, pkF) || !slices.Equal(t0G, t0F) {
			return fmt.Errorf("differs for k = %d", k)
		}
		return nil
	}),
	checkOf(keyGenTRoutine, func(rng *rand.Rand, g, f func(t, s1Hat, s2, aHat []ringElement)) error {
		// The (k, ℓ) of each parameter set, and one of none.
		kl := [][2]int{{4, 4}, {6, 5}, {8, 7}, {3, 2}}[rng.IntN(4)]
		k, l := kl[0], kl[1]
		rnd := func(n int) []ringElement {
			v := make([]ringElement, n)
			for i := range v {
				for j := range v[i] {
					v[i][j] = fieldElement(rng.Uint32N(q))
				}
			}
			return v
		}
		s1, s2, aHat := rnd(l), rnd(k), rnd(k*l)
		s1G, s1F := slices.Clone(s1), slices.Clone(s1)
		tG, tF := rnd(k), rnd(k)
		g(tG, s1G, s2, aHat)
		f(tF, s1F, s2, aHat)
		if !slices.Equal(tG, tF) || !slices.Equal(s1G, s1F) {
			return fmt.Errorf("differs for (k, ℓ) = %v", kl)
		}
		return nil
	}),
	checkOf(keyGenRoutine, func(rng *rand.Rand, g, f func(*params, []byte, []byte, []ringElement, []ringElement, []ringElement, []ringElement, []ringElement, *[32]byte) bool) error {
		p := []*params{&params44, &params65, &params87}[rng.IntN(3)]
		var ξ [32]byte
		copy(ξ[:], randBytes(rng, 32))
		type out struct {
			pk, sk                 []byte
			aHat, s1Hat, s2, t, t0 []ringElement
			ok                     bool
		}
		run := func(fn func(*params, []byte, []byte, []ringElement, []ringElement, []ringElement, []ringElement, []ringElement, *[32]byte) bool) out {
			o := out{pk: make([]byte, p.pkSize()), sk: make([]byte, p.skSize()), aHat: make([]ringElement, p.k*p.l),
				s1Hat: make([]ringElement, p.l), s2: make([]ringElement, p.k), t: make([]ringElement, p.k), t0: make([]ringElement, p.k)}
			o.ok = fn(p, o.pk, o.sk, o.aHat, o.s1Hat, o.s2, o.t, o.t0, &ξ)
			return o
		}
		a, b := run(g), run(f)
		if !a.ok || !b.ok || !bytes.Equal(a.pk, b.pk) || !bytes.Equal(a.sk, b.sk) || !slices.Equal(a.aHat, b.aHat) || !slices.Equal(a.s1Hat, b.s1Hat) ||
			!slices.Equal(a.s2, b.s2) || !slices.Equal(a.t, b.t) || !slices.Equal(a.t0, b.t0) {
			return fmt.Errorf("differs for %s, ξ = %x (ok %v, %v)", p.name, ξ, a.ok, b.ok)
		}
		return nil
	}),
	checkOf(verifyRoutine, func(rng *rand.Rand, g, f func(*params, []byte, *[64]byte, []ringElement, []ringElement) bool) error {
		params := []Parameters{MLDSA44(), MLDSA65(), MLDSA87()}[rng.IntN(3)]
		sk, err := NewPrivateKey(params, randBytes(rng, 32))
		if err != nil {
			return err
		}
		var μ [64]byte
		copy(μ[:], randBytes(rng, 64))
		sig, err := sk.SignMu(μ[:])
		if err != nil {
			return err
		}
		// Valid, or changed in μ, c̃, z or h.
		change := rng.IntN(4)
		switch change {
		case 1:
			μ[rng.IntN(64)] ^= 1
		case 2, 3:
			sig[rng.IntN(len(sig))] ^= byte(1 + rng.IntN(255))
		}
		pk, p := sk.PublicKey(), params.p
		aHat := keepA(pk, true)
		pk.verifyForms()
		a, b := g(p, sig, &μ, aHat, pk.t1Hat), f(p, sig, &μ, aHat, pk.t1Hat)
		if a != b || change == 0 && !a {
			return fmt.Errorf("%s: verdicts %v and %v (change %d)", p.name, a, b, change)
		}
		return nil
	}),
	checkOf(signZRoutine, func(rng *rand.Rand, g, f func(*params, []byte, *ringElement, []ringElement, []ringElement, *[130]byte, []ringElement, []ringElement, []ringElement) bool) error {
		st, err := newStageInput(rng)
		if err != nil {
			return err
		}
		p := st.p
		type out struct {
			cTilde []byte
			cHat   ringElement
			w, z   []ringElement
			ok     bool
		}
		run := func(fn func(*params, []byte, *ringElement, []ringElement, []ringElement, *[130]byte, []ringElement, []ringElement, []ringElement) bool) *out {
			o := &out{cTilde: make([]byte, p.cTildeSize()), w: make([]ringElement, p.k), z: make([]ringElement, p.l)}
			o.ok = fn(p, o.cTilde, &o.cHat, o.w, o.z, &st.in, keepA(st.sk.pub, false), st.sk.s1Hat, make([]ringElement, signZWork(p)))
			return o
		}
		a, b := run(g), run(f)
		if a.ok != b.ok || !bytes.Equal(a.cTilde, b.cTilde) || a.cHat != b.cHat || !slices.Equal(a.w, b.w) || !slices.Equal(a.z, b.z) {
			return fmt.Errorf("%s: first stages differ (ok %v, %v)", p.name, a.ok, b.ok)
		}
		return nil
	}),
	checkOf(signR0Routine, func(rng *rand.Rand, g, f func(*params, []ringElement, *ringElement, []ringElement, *ringElement) bool) error {
		st, err := newStageInput(rng)
		if err != nil {
			return err
		}
		p := st.p
		a, b := slices.Clone(st.w), slices.Clone(st.w)
		var work ringElement
		okA, okB := g(p, a, &st.cHat, st.sk.s2Hat, &work), f(p, b, &st.cHat, st.sk.s2Hat, &work)
		if okA != okB || !slices.Equal(a, b) {
			return fmt.Errorf("%s: second stages differ (ok %v, %v)", p.name, okA, okB)
		}
		return nil
	}),
	checkOf(signHintRoutine, func(rng *rand.Rand, g, f func(*params, []ringElement, []ringElement, *ringElement, []ringElement, *ringElement) bool) error {
		st, err := newStageInput(rng)
		if err != nil {
			return err
		}
		p := st.p
		var work ringElement
		signR0Generic(p, st.w, &st.cHat, st.sk.s2Hat, &work)
		a, b := make([]ringElement, p.k), make([]ringElement, p.k)
		okA, okB := g(p, a, st.w, &st.cHat, st.sk.t0Hat, &work), f(p, b, st.w, &st.cHat, st.sk.t0Hat, &work)
		if okA != okB || !slices.Equal(a, b) {
			return fmt.Errorf("%s: third stages differ (ok %v, %v)", p.name, okA, okB)
		}
		return nil
	}),
	checkOf(signRoutine, func(rng *rand.Rand, g, f func(*params, []byte, *[32]byte, *[32]byte, *[64]byte, []ringElement, []ringElement, []ringElement, []ringElement, *signScratch) bool) error {
		set := []Parameters{MLDSA44(), MLDSA65(), MLDSA87()}[rng.IntN(3)]
		sk, err := NewPrivateKey(set, randBytes(rng, 32))
		if err != nil {
			return err
		}
		sk.signForms()
		aHat := keepA(sk.pub, false)
		p := set.p
		var rnd [32]byte
		var μ [64]byte
		copy(rnd[:], randBytes(rng, 32))
		copy(μ[:], randBytes(rng, 64))
		run := func(fn func(*params, []byte, *[32]byte, *[32]byte, *[64]byte, []ringElement, []ringElement, []ringElement, []ringElement, *signScratch) bool) ([]byte, bool) {
			sig := make([]byte, p.sigSize())
			ok := fn(p, sig, &sk.key, &rnd, &μ, aHat, sk.s1Hat, sk.s2Hat, sk.t0Hat, new(signScratch))
			return sig, ok
		}
		x, okX := run(g)
		y, okY := run(f)
		if !okX || !okY || !bytes.Equal(x, y) {
			return fmt.Errorf("%s: σ differs (ok %v, %v)", p.name, okX, okY)
		}
		return nil
	}),
	checkOf(sigEncodeRoutine, func(rng *rand.Rand, g, f func([]byte, []byte, []ringElement, []ringElement, int, int)) error {
		p := []Parameters{MLDSA44(), MLDSA65(), MLDSA87()}[rng.IntN(3)].p
		// z mod± q in [−γ1 + 1, γ1], the ends half of the time; h of at
		// most ω ones.
		γ1 := int(p.γ1())
		z := make([]ringElement, p.l)
		for j := range z {
			for i := range z[j] {
				v := rng.IntN(2*γ1) - γ1 + 1
				switch rng.IntN(4) {
				case 0:
					v = γ1
				case 1:
					v = 1 - γ1
				}
				z[j][i] = fieldElement((v + q) % q)
			}
		}
		h := make([]ringElement, p.k)
		for n := rng.IntN(p.ω + 1); n > 0; n-- {
			h[rng.IntN(p.k)][rng.IntN(n256)] = 1
		}
		cTilde := randBytes(rng, p.cTildeSize())
		x, y := make([]byte, p.sigSize()), make([]byte, p.sigSize())
		g(x, cTilde, z, h, p.γ1Bits, p.ω)
		f(y, cTilde, z, h, p.γ1Bits, p.ω)
		if !bytes.Equal(x, y) {
			return fmt.Errorf("%s: σ differs", p.name)
		}
		return nil
	}),
	checkOf(expandMaskRoutine, func(rng *rand.Rand, g, f func([]ringElement, *[64]byte, int, int)) error {
		var seed [64]byte
		copy(seed[:], randBytes(rng, 64))
		κ, bits := rng.IntN(1<<15), []int{17, 19}[rng.IntN(2)]
		x, y := make([]ringElement, 7), make([]ringElement, 7)
		g(x, &seed, κ, bits)
		f(y, &seed, κ, bits)
		for j := range x {
			if x[j] != y[j] {
				return fmt.Errorf("differs")
			}
		}
		return nil
	}),
	checkOf(sampleInBallRoutine, func(rng *rand.Rand, g, f func(*ringElement, []byte, int) bool) error {
		// The three parameter sets' (τ, λ/4), and a pair of none.
		ps := [][2]int{{39, 32}, {49, 48}, {60, 64}, {39, 64}}[rng.IntN(4)]
		ρ, τ := randBytes(rng, ps[1]), ps[0]
		var x, y ringElement
		if g(&x, ρ, τ) != f(&y, ρ, τ) || x != y {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(hintBitPackRoutine, func(rng *rand.Rand, g, f func([]byte, []ringElement, int)) error {
		// The three parameter sets' (k, ω), and a pair of none; up to ω
		// ones, exactly ω half of the time.
		ps := [][2]int{{4, 80}, {6, 55}, {8, 75}, {5, 60}}[rng.IntN(4)]
		k, ω := ps[0], ps[1]
		h := make([]ringElement, k)
		ones := ω
		if rng.IntN(2) == 0 {
			ones = rng.IntN(ω + 1)
		}
		for set := 0; set < ones; {
			if c := &h[rng.IntN(k)][rng.IntN(n256)]; *c == 0 {
				*c, set = 1, set+1
			}
		}
		x, y := randBytes(rng, ω+k), randBytes(rng, ω+k)
		g(x, h, ω)
		f(y, h, ω)
		if string(x) != string(y) {
			return fmt.Errorf("differs: %x, %x", x, y)
		}
		return nil
	}),
	checkOf(hintBitUnpackRoutine, func(rng *rand.Rand, g, f func([]ringElement, []byte, int) bool) error {
		// The three parameter sets' (k, ω), and a pair of none; an
		// encoding of a hint, then often a byte changed: a count, a
		// position, padding.
		ps := [][2]int{{4, 80}, {6, 55}, {8, 75}, {5, 60}}[rng.IntN(4)]
		k, ω := ps[0], ps[1]
		h := make([]ringElement, k)
		for n := rng.IntN(ω + 1); n > 0; n-- {
			h[rng.IntN(k)][rng.IntN(n256)] = 1
		}
		y := make([]byte, ω+k)
		hintBitPackGeneric(y, h, ω)
		switch rng.IntN(4) {
		case 1:
			y[ω+rng.IntN(k)] = byte(rng.IntN(ω + 2))
		case 2:
			y[rng.IntN(ω)] = byte(rng.Uint32())
		case 3:
			if t := rng.IntN(ω); t > 0 {
				y[t] = y[t-1]
			}
		}
		x, z := make([]ringElement, k), make([]ringElement, k)
		okg, okf := g(x, y, ω), f(z, y, ω)
		if okg != okf {
			return fmt.Errorf("%x: accepted %v, %v", y, okg, okf)
		}
		for i := range x {
			if okg && x[i] != z[i] {
				return fmt.Errorf("%x: h differs", y)
			}
		}
		return nil
	}),
	checkOf(simpleBitPackRoutine, func(rng *rand.Rand, g, f func([]byte, *ringElement, int)) error {
		// The widths with assembly half of the time (w1, t1), any other.
		width := []int{4, 6, 10, 1 + rng.IntN(20)}[rng.IntN(4)]
		var a ringElement
		for i := range a {
			a[i] = fieldElement(rng.Uint32N(1 << width))
			if rng.IntN(4) == 0 {
				a[i] = 1<<width - 1
			}
		}
		x, y := make([]byte, 32*width), make([]byte, 32*width)
		g(x, &a, width)
		f(y, &a, width)
		if string(x) != string(y) {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(simpleBitUnpackRoutine, func(rng *rand.Rand, g, f func(*ringElement, []byte, int)) error {
		width := []int{10, 1 + rng.IntN(20)}[rng.IntN(2)]
		in := randBytes(rng, 32*width)
		var x, y ringElement
		g(&x, in, width)
		f(&y, in, width)
		if x != y {
			return fmt.Errorf("differs")
		}
		return nil
	}),
	checkOf(bitPackSignedRoutine, func(rng *rand.Rand, g, f func([]byte, *ringElement, int, fieldElement)) error {
		s := signedPackings[rng.IntN(len(signedPackings))]
		var a ringElement
		for i := range a {
			v := int64(rng.IntN(s.a+s.b+1) - s.a)
			switch rng.IntN(4) {
			case 0:
				v = int64(-s.a)
			case 1:
				v = int64(s.b)
			}
			a[i] = modQ(v)
		}
		x, y := make([]byte, 32*s.width), make([]byte, 32*s.width)
		g(x, &a, s.width, fieldElement(s.b))
		f(y, &a, s.width, fieldElement(s.b))
		if string(x) != string(y) {
			return fmt.Errorf("differs (width %d)", s.width)
		}
		return nil
	}),
	checkOf(bitUnpackSignedRoutine, func(rng *rand.Rand, g, f func(*ringElement, []byte, int, fieldElement)) error {
		s := signedPackings[rng.IntN(len(signedPackings))]
		in := packedInput(rng, s.width)
		var x, y ringElement
		g(&x, in, s.width, fieldElement(s.b))
		f(&y, in, s.width, fieldElement(s.b))
		if x != y {
			return fmt.Errorf("differs (width %d)", s.width)
		}
		return nil
	}),
	checkOf(bitUnpackSignedCheckedRoutine, func(rng *rand.Rand, g, f func(*ringElement, []byte, int, fieldElement, uint32) uint32) error {
		s := signedPackings[rng.IntN(2)] // η = 2, 4
		in := packedInput(rng, s.width)
		if rng.IntN(2) == 0 {
			// Every value in range but possibly one.
			var w ringElement
			for i := range w {
				w[i] = fieldElement(rng.IntN(s.a + s.b + 1))
			}
			if rng.IntN(2) == 0 {
				w[rng.IntN(256)] = fieldElement(s.a + s.b + 1 + rng.IntN(1<<s.width-s.a-s.b-1))
			}
			simpleBitPackGeneric(in, &w, s.width)
		}
		var x, y ringElement
		bx := g(&x, in, s.width, fieldElement(s.b), uint32(s.a+s.b))
		by := f(&y, in, s.width, fieldElement(s.b), uint32(s.a+s.b))
		if x != y || bx != by {
			return fmt.Errorf("differs (width %d): flags %d, %d", s.width, bx, by)
		}
		return nil
	}),
	checkOf(lowBitsExceedRoutine, func(rng *rand.Rand, g, f func(*ringElement, uint32, uint32) uint32) error {
		a := randomPoly(rng)
		γ2 := []uint32{(q - 1) / 88, (q - 1) / 32}[rng.IntN(2)]
		bound := 1 + rng.Uint32N(γ2)
		if g(&a, bound, γ2) != f(&a, bound, γ2) {
			return fmt.Errorf("differs")
		}
		return nil
	}),
}

func polyMapCheck(rng *rand.Rand, g, f func(*ringElement)) error {
	a := randomPoly(rng)
	b := a
	g(&a)
	f(&b)
	if a != b {
		return fmt.Errorf("differs")
	}
	return nil
}

// edgyPoly draws coefficients in [0, q), a quarter of them 0, 1, q − 2
// or q − 1, where a reduction is off by one if it is wrong.
func edgyPoly(rng *rand.Rand) ringElement {
	a := randomPoly(rng)
	for i := range a {
		if rng.IntN(4) == 0 {
			a[i] = []fieldElement{0, 1, q - 2, q - 1}[rng.IntN(4)]
		}
	}
	return a
}

// edgyMapCheck checks a map w ← f(w) on edgy inputs.
func edgyMapCheck(rng *rand.Rand, g, f func(w *ringElement)) error {
	a := edgyPoly(rng)
	x, y := a, a
	g(&x)
	f(&y)
	if x != y {
		return fmt.Errorf("differs")
	}
	return nil
}

// pairMapCheck checks a map w ← f(w, b) on edgy inputs, and with b = w.
func pairMapCheck(rng *rand.Rand, g, f func(w, b *ringElement)) error {
	a, b := edgyPoly(rng), edgyPoly(rng)
	x, y := a, a
	g(&x, &b)
	f(&y, &b)
	if x != y {
		return fmt.Errorf("differs")
	}
	x, y = a, a
	g(&x, &x)
	f(&y, &y)
	if x != y {
		return fmt.Errorf("differs with b = w")
	}
	return nil
}

// variantCheck is the check of one routine's variants, whatever its type.
type variantCheck interface {
	routineName() string
	// run runs every usable variant against the generic one, as subtests.
	run(t *testing.T, rng *rand.Rand)
}

type typedCheck[F any] struct {
	r     *routineVariants[F]
	check func(rng *rand.Rand, generic, fn F) error
}

// checkOf pairs a routine of the registry with its check; the two share
// the routine's Go type.
func checkOf[F any](r *routineVariants[F], check func(rng *rand.Rand, generic, fn F) error) variantCheck {
	return typedCheck[F]{r, check}
}

func (c typedCheck[F]) routineName() string { return c.r.name }

func (c typedCheck[F]) run(t *testing.T, rng *rand.Rand) {
	generic := c.r.variants[0]
	if generic.name != "Generic" {
		t.Fatalf("%s: the first variant is %s, not Generic", c.r.name, generic.name)
	}
	for _, v := range c.r.variants {
		t.Run(c.r.name+v.name, func(t *testing.T) {
			if !v.usable {
				t.Skipf("%s%s needs a CPU feature this machine lacks", c.r.name, v.name)
			}
			for i := 0; i < 50; i++ {
				if err := c.check(rng, generic.fn, v.fn); err != nil {
					t.Fatalf("%s%s: %v", c.r.name, v.name, err)
				}
			}
		})
	}
}

// TestVariantsAgainstGeneric runs every usable variant in the registry
// against the routine's generic implementation: every routine of the
// registry has a check, every check a routine.
func TestVariantsAgainstGeneric(t *testing.T) {
	checks := map[string]variantCheck{}
	for _, c := range variantChecks {
		checks[c.routineName()] = c
	}
	inRegistry := map[string]bool{}
	for _, r := range registry {
		inRegistry[r.routineName()] = true
		if checks[r.routineName()] == nil {
			t.Errorf("no check for routine %s", r.routineName())
		}
	}
	for name := range checks {
		if !inRegistry[name] {
			t.Errorf("check for %s, which is not in the registry", name)
		}
	}
	rng := rand.New(rand.NewPCG(27, 28))
	for _, c := range variantChecks {
		c.run(t, rng)
	}
}

// signedPackings are BitPack's (a, b) at the widths of ML-DSA: η = 2, 4,
// t0, z for γ1 = 2¹⁷, 2¹⁹.
var signedPackings = []struct{ a, b, width int }{
	{2, 2, 3}, {4, 4, 4}, {1<<12 - 1, 1 << 12, 13}, {1<<17 - 1, 1 << 17, 18}, {1<<19 - 1, 1 << 19, 20},
}

// packedInput draws 32·width bytes: random, all ones or all zeros.
func packedInput(rng *rand.Rand, width int) []byte {
	in := randBytes(rng, 32*width)
	switch rng.IntN(6) {
	case 0:
		for i := range in {
			in[i] = 0xff
		}
	case 1:
		clear(in)
	}
	return in
}

// stageInput is an attempt's input for the sign stages' tests: a key of a
// random parameter set, μ ‖ ρ″ ‖ κ, and ĉ and w as the generic first stage
// gives them.
type stageInput struct {
	p    *params
	sk   *PrivateKey
	in   [130]byte
	cHat ringElement
	w    []ringElement
}

// keepA makes pk keep Â, as its second use does, and returns it.
func keepA(pk *PublicKey, forVerify bool) []ringElement {
	for {
		aHat, s, err := pk.useA(forVerify)
		if err != nil {
			panic(err)
		}
		if s == nil {
			return aHat
		}
		putAScratch(s)
	}
}

func newStageInput(rng *rand.Rand) (*stageInput, error) {
	set := []Parameters{MLDSA44(), MLDSA65(), MLDSA87()}[rng.IntN(3)]
	sk, err := NewPrivateKey(set, randBytes(rng, 32))
	if err != nil {
		return nil, err
	}
	sk.signForms()
	p := set.p
	st := &stageInput{p: p, sk: sk, w: make([]ringElement, p.k)}
	copy(st.in[:128], randBytes(rng, 128))
	κ := p.l * rng.IntN(signAttempts)
	st.in[128], st.in[129] = byte(κ), byte(κ>>8)
	signZGeneric(p, make([]byte, p.cTildeSize()), &st.cHat, st.w, make([]ringElement, p.l), &st.in, keepA(sk.pub, false), sk.s1Hat, make([]ringElement, signZWork(p)))
	return st, nil
}
