package mldsa

// expandATrace, when set by a test, records every sampler call of
// expandAGeneric: the seeds and the entries written. It holds values only,
// so that expandAGeneric's seeds stay on the stack.
var expandATrace *[]expandACall

type expandACall struct {
	four    bool // rejNTTPolyx4 (else rejNTTPoly)
	seeds   [4][34]byte
	entries [4]*ringElement
}

// expandAGeneric is ExpandA (Algorithm 32): Â[r][s] = RejNTTPoly(ρ ‖ s ‖
// r), stored row-major in a (entry e = ℓr + s). Entries go in ⌊kℓ/4⌋
// groups of four through the four-way sampler, the last kℓ mod 4 one at a
// time, as the AVX2 assembly does. The coefficients come out plain, in
// [0, q). Key generation, signing and verification all sample Â through
// expandA, which dispatches to the assembly where there is one.
func expandAGeneric(a []ringElement, ρ *[32]byte, k, l int) error {
	total := k * l
	if len(a) < total {
		return errBadMatrix
	}
	var seeds [4][34]byte
	for j := range seeds {
		copy(seeds[j][:], ρ[:])
	}
	e := 0
	for ; e+4 <= total; e += 4 {
		var ptrs [4]*ringElement
		for j := 0; j < 4; j++ {
			seeds[j][32] = byte((e + j) % l)
			seeds[j][33] = byte((e + j) / l)
			ptrs[j] = &a[e+j]
		}
		if expandATrace != nil {
			*expandATrace = append(*expandATrace, expandACall{four: true, seeds: seeds, entries: ptrs})
		}
		if !rejNTTPolyx4Generic(&ptrs, &seeds) {
			return errSamplerExhausted
		}
	}
	for ; e < total; e++ {
		seeds[0][32] = byte(e % l)
		seeds[0][33] = byte(e / l)
		if expandATrace != nil {
			*expandATrace = append(*expandATrace, expandACall{seeds: [4][34]byte{seeds[0]}, entries: [4]*ringElement{&a[e]}})
		}
		if !rejNTTPolyGeneric(&a[e], &seeds[0]) {
			return errSamplerExhausted
		}
	}
	return nil
}
