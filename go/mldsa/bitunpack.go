package mldsa

import "encoding/binary"

// The bit unpackings of FIPS 204, §7.2 that decode a polynomial. Widths
// are public; no branch or address depends on a coefficient.

// simpleBitUnpackGeneric is SimpleBitUnpack (Algorithm 18): 256 values of width
// bits (at most 32) from 32·width bytes. t1's width (10) goes four values
// (five bytes) at a time, others through unpackBits.
func simpleBitUnpackGeneric(w *ringElement, in []byte, width int) {
	if width != 10 {
		unpackBits(w, in, width)
		return
	}
	in = in[:320]
	for g := 0; g < n256/4; g++ {
		b := in[5*g : 5*g+5]
		v := uint64(binary.LittleEndian.Uint32(b)) | uint64(b[4])<<32
		c := (*[4]fieldElement)(w[4*g:])
		c[0] = fieldElement(v & 0x3FF)
		c[1] = fieldElement(v >> 10 & 0x3FF)
		c[2] = fieldElement(v >> 20 & 0x3FF)
		c[3] = fieldElement(v >> 30 & 0x3FF)
	}
}

// unpackBits is SimpleBitUnpack for any width up to 32, read 32 bits at a
// time.
func unpackBits(w *ringElement, in []byte, width int) {
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
// range (below q + b). z's widths (18 and 20) go four values at a time.
func bitUnpackSignedGeneric(w *ringElement, in []byte, width int, b fieldElement) {
	switch width {
	case 18:
		const m = 1<<18 - 1
		in = in[:576]
		for g := 0; g < n256/4; g++ {
			c := in[9*g : 9*g+9]
			v := binary.LittleEndian.Uint64(c)
			setSigned4((*[4]fieldElement)(w[4*g:]), int32(b), int32(v&m), int32(v>>18&m), int32(v>>36&m), int32((v>>54|uint64(c[8])<<10)&m))
		}
	case 20:
		const m = 1<<20 - 1
		in = in[:640]
		for g := 0; g < n256/4; g++ {
			c := in[10*g : 10*g+10]
			v, hi := binary.LittleEndian.Uint64(c), binary.LittleEndian.Uint16(c[8:])
			setSigned4((*[4]fieldElement)(w[4*g:]), int32(b), int32(v&m), int32(v>>20&m), int32(v>>40&m), int32((v>>60|uint64(hi)<<4)&m))
		}
	default:
		unpackBits(w, in, width)
		for i := range w {
			w[i] = fieldSub(b, w[i])
		}
	}
}

// setSigned4 sets c[i] = b − x_i mod q, for b, x_i < 2³¹.
func setSigned4(c *[4]fieldElement, b, x0, x1, x2, x3 int32) {
	d0, d1, d2, d3 := b-x0, b-x1, b-x2, b-x3
	c[0] = fieldElement(d0 + d0>>31&q)
	c[1] = fieldElement(d1 + d1>>31&q)
	c[2] = fieldElement(d2 + d2>>31&q)
	c[3] = fieldElement(d3 + d3>>31&q)
}

// bitUnpackSignedCheckedGeneric is bitUnpackSignedGeneric that also
// reports, as 1 or 0, whether a packed value exceeds max, i.e. the encoding
// is outside [−a, b].
func bitUnpackSignedCheckedGeneric(w *ringElement, in []byte, width int, b fieldElement, max uint32) uint32 {
	unpackBits(w, in, width)
	var bad uint32
	for i := range w {
		bad |= (max - uint32(w[i])) >> 31
		w[i] = fieldSub(b, w[i])
	}
	return bad
}
