package mldsa

import "encoding/binary"

// The bit packings of FIPS 204, §7.2 that encode a polynomial. Widths are
// public; no branch or address depends on a coefficient.

// simpleBitPackGeneric is SimpleBitPack (Algorithm 16) for coefficients below
// 2^width: out gets 32·width bytes, little-endian bit order. Bits gather in
// a 64-bit accumulator and leave 32 at a time; 256·width is a multiple of
// 32, so nothing is left over.
func simpleBitPackGeneric(out []byte, w *ringElement, width int) {
	out = out[:32*width]
	var acc uint64
	nb, o := 0, 0
	for _, x := range w {
		acc |= uint64(x) << nb
		nb += width
		if nb >= 32 {
			binary.LittleEndian.PutUint32(out[o:], uint32(acc))
			o += 4
			acc >>= 32
			nb -= 32
		}
	}
}

// bitPackSignedGeneric is BitPack(w, a, b) (Algorithm 17) for w with
// coefficients in [−a, b], held mod q: it packs b − w, which lies in
// [0, a + b].
func bitPackSignedGeneric(out []byte, w *ringElement, width int, b fieldElement) {
	var t ringElement
	for i := range t {
		t[i] = fieldSub(b, w[i])
	}
	simpleBitPackGeneric(out, &t, width)
}
