package mldsa

import (
	"sync"
	"unsafe"
)

// signScratch holds the buffers of the signing attempts, laid out as the
// Sign routines take them (contract.SignAccZ, SignAccH, SignCHat, …;
// TestSignScratchLayout): acc = c̃ ‖ z ‖ h, seed = K ‖ rnd ‖ μ, and
// μ ‖ ρ″ ‖ IntegerToBytes(κ, 2) (in), ĉ, w (then w − cs2), the stages'
// work space and the state of ρ″'s permutation. Every attempt writes
// each of them whole before reading it (but μ and ρ″, written once).
type signScratch struct {
	acc  signAcc
	seed [128]byte
	signWork
}

// signAcc is the accepted attempt's c̃, z and h.
type signAcc struct {
	cTilde [64]byte
	z      [maxL]ringElement
	h      [maxK]ringElement
}

// signWork is the rest of the attempts' space.
type signWork struct {
	in    [130]byte
	_     [126]byte
	cHat  ringElement
	w     [maxK]ringElement
	work  [maxSignZWork]ringElement
	state [200]byte
}

var signScratchPool = sync.Pool{New: func() any { return new(signScratch) }}

// putSignScratch returns scratch to the pool zeroed: ρ″, c̃, z, w, h and
// the copies of μ and rnd are secret, and pooled memory outlives the call.
func putSignScratch(scratch *signScratch) {
	*scratch = signScratch{}
	signScratchPool.Put(scratch)
}

// signGeneric is ML-DSA.Sign_internal (Algorithm 7) from line 7, from K,
// rnd, μ, Â (row-major, as sampled) and NTT(s1), NTT(s2), NTT(t0) in
// Montgomery form: it writes σ into sig and reports whether an attempt
// ended the loop within the bound of Appendix C. scratch holds the
// attempts' buffers; false for buffers of other sizes than p's.
//
// An attempt runs in three stages, as Spec's SignOver does, and branches
// where Algorithm 7 does: after the ‖z‖∞ check (signZ, line 23), after the
// ‖r0‖∞ check (signR0, line 23), and after ‖ct0‖∞ and the number of hints
// together (signHint, line 28). Each check is computed without branches
// over all coefficients, so timing reveals how many attempts were made
// and, for each rejected one, which of these three checks rejected it,
// nothing finer (not which polynomial or coefficient). The ‖z‖∞ outcome
// is exactly independent of the key: each coefficient of y is uniform on
// [−γ1 + 1, γ1] and |cs1| ≤ β, so each of z lands inside the bound with
// probability (2(γ1 − β) − 1)/(2γ1) whatever cs1 is. The ‖r0‖∞ outcome is
// independent of it under the heuristic of FIPS 204's analysis (w
// uniform, ‖cs2‖∞ ≤ β); the line 28 checks almost never fail. Branching
// early saves computing cs2, ct0 and h. An attempt whose SampleInBall
// runs out of its bound (Appendix C; below 2⁻²⁵⁶) counts as rejected.
// The Sign routines run the same loop.
func signGeneric(p *params, sig []byte, key, rnd *[32]byte, μ *[64]byte, aHat, s1Hat, s2Hat, t0Hat []ringElement, scratch *signScratch) bool {
	k, l := p.k, p.l
	if len(sig) != p.sigSize() || len(aHat) != k*l || len(s1Hat) != l || len(s2Hat) != k || len(t0Hat) != k {
		return false
	}
	in := &scratch.in
	copy(in[:64], μ[:])
	// Line 7: ρ″ ← H(K ‖ rnd ‖ μ, 64).
	h := newShake256()
	h.write(key[:])
	h.write(rnd[:])
	h.write(μ[:])
	h.read(in[64:128])
	cTilde, cHat := scratch.acc.cTilde[:p.cTildeSize()], &scratch.cHat
	z, w, hint := scratch.acc.z[:l], scratch.w[:k], scratch.acc.h[:k]
	work := scratch.work[:signZWork(p)]

	for attempt := 0; attempt < signAttempts; attempt++ {
		// Lines 11 to 18 and 20 for κ = attempt·ℓ; line 23: ‖z‖∞ < γ1 − β.
		κ := attempt * l
		in[128], in[129] = byte(κ), byte(κ>>8)
		ok := signZ(p, cTilde, cHat, w, z, in, aHat, s1Hat, work)
		declassify(publicRejectZ, unsafe.Pointer(&ok), 1)
		if !ok {
			continue
		}
		// Lines 19 and 21: w ← w − ⟨⟨cs2⟩⟩; line 23: ‖r0‖∞ < γ2 − β.
		ok = signR0(p, w, cHat, s2Hat, &work[0])
		declassify(publicRejectR0, unsafe.Pointer(&ok), 1)
		if !ok {
			continue
		}
		// Lines 25 to 28: h; ‖ct0‖∞ < γ2 and at most ω ones in h.
		ok = signHint(p, hint, w, cHat, t0Hat, &work[0])
		declassify(publicRejectHint, unsafe.Pointer(&ok), 1)
		if !ok {
			continue
		}
		declassify(publicSignature, unsafe.Pointer(&scratch.acc.cTilde), uintptr(len(cTilde)))
		declassify(publicSignature, unsafe.Pointer(&scratch.acc.z), unsafe.Sizeof(z[0])*uintptr(l))
		declassify(publicSignature, unsafe.Pointer(&scratch.acc.h), unsafe.Sizeof(hint[0])*uintptr(k))
		// Line 33: σ ← sigEncode(c̃, z mod± q, h).
		sigEncode(sig, cTilde, z, hint, p.γ1Bits, p.ω)
		return true
	}
	return false
}
