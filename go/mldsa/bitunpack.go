package mldsa

import "encoding/binary"

// The bit unpackings of FIPS 204, §7.2 that decode a polynomial. Widths
// are public; no branch or address depends on a coefficient.

// simpleBitUnpackGeneric is SimpleBitUnpack (Algorithm 18): 256 values of width
// bits (at most 32) from 32·width bytes, read 32 bits at a time.
func simpleBitUnpackGeneric(w *ringElement, in []byte, width int) {
	in = in[:32*width]
	mask := uint64(1)<<width - 1
	var acc uint64
	nb, i := 0, 0
	for j := range w {
		if nb < width {
			acc |= uint64(binary.LittleEndian.Uint32(in[i:])) << nb
			i += 4
			nb += 32
		}
		w[j] = fieldElement(acc & mask)
		acc >>= width
		nb -= width
	}
}

// bitUnpackSignedGeneric is BitUnpack(v, a, b) (Algorithm 19): w = b −
// (packed value), mod q, for encodings where every packed value is in
// range.
func bitUnpackSignedGeneric(w *ringElement, in []byte, width int, b fieldElement) {
	simpleBitUnpackGeneric(w, in, width)
	for i := range w {
		w[i] = fieldSub(b, w[i])
	}
}

// bitUnpackSignedCheckedGeneric is bitUnpackSignedGeneric that also
// reports, as 1 or 0, whether a packed value exceeds max, i.e. the encoding
// is outside [−a, b].
func bitUnpackSignedCheckedGeneric(w *ringElement, in []byte, width int, b fieldElement, max uint32) uint32 {
	simpleBitUnpackGeneric(w, in, width)
	var bad uint32
	for i := range w {
		bad |= (max - uint32(w[i])) >> 31
		w[i] = fieldSub(b, w[i])
	}
	return bad
}
