package mldsa

import "encoding/binary"

// The bit packings of FIPS 204, §7.2 that encode a polynomial. Widths are
// public; no branch or address depends on a coefficient.

// simpleBitPackGeneric is SimpleBitPack (Algorithm 16) for coefficients below
// 2^width: out gets 32·width bytes, little-endian bit order. The widths of
// w1Encode (4 and 6) and of t1 (10) go a group of coefficients that fills
// whole bytes at a time; others through packBits.
func simpleBitPackGeneric(out []byte, w *ringElement, width int) {
	switch width {
	case 4:
		out = out[:128]
		for g := 0; g < n256/16; g++ {
			c := (*[16]fieldElement)(w[16*g:])
			var v uint64
			for i := 15; i >= 0; i-- {
				v = v<<4 | uint64(c[i])
			}
			binary.LittleEndian.PutUint64(out[8*g:], v)
		}
	case 6:
		out = out[:192]
		for g := 0; g < n256/8; g++ {
			c := (*[8]fieldElement)(w[8*g:])
			v := uint64(c[0]) | uint64(c[1])<<6 | uint64(c[2])<<12 | uint64(c[3])<<18 |
				uint64(c[4])<<24 | uint64(c[5])<<30 | uint64(c[6])<<36 | uint64(c[7])<<42
			o := out[6*g : 6*g+6]
			binary.LittleEndian.PutUint32(o, uint32(v))
			binary.LittleEndian.PutUint16(o[4:], uint16(v>>32))
		}
	case 10:
		out = out[:320]
		for g := 0; g < n256/4; g++ {
			c := (*[4]fieldElement)(w[4*g:])
			v := uint64(c[0]) | uint64(c[1])<<10 | uint64(c[2])<<20 | uint64(c[3])<<30
			o := out[5*g : 5*g+5]
			binary.LittleEndian.PutUint32(o, uint32(v))
			o[4] = byte(v >> 32)
		}
	default:
		packBits(out, w, width)
	}
}

// packBits is SimpleBitPack for any width up to 32. Bits gather in a 64-bit
// accumulator and leave 32 at a time; 256·width is a multiple of 32, so
// nothing is left over.
func packBits(out []byte, w *ringElement, width int) {
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
// [0, a + b]. z's widths (18 and 20) go four coefficients at a time (the
// signature's z only: once a signature).
func bitPackSignedGeneric(out []byte, w *ringElement, width int, b fieldElement) {
	if width != 18 && width != 20 {
		var t ringElement
		for i := range t {
			t[i] = fieldSub(b, w[i])
		}
		packBits(out, &t, width)
		return
	}
	// Four values are 72 or 80 bits: 64 of them, then the last 8 or 16
	// bits of the fourth.
	nb := width / 2
	out = out[:64*nb]
	s1, s2, s3, s4 := uint(width)&63, uint(2*width)&63, uint(3*width)&63, uint(64-3*width)&63
	for g := 0; g < n256/4; g++ {
		t0, t1, t2, t3 := subMod4((*[4]fieldElement)(w[4*g:]), b)
		o := out[nb*g : nb*g+nb]
		binary.LittleEndian.PutUint64(o, t0|t1<<s1|t2<<s2|t3<<s3)
		for k, hi := 8, t3>>s4; k < nb; k, hi = k+1, hi>>8 {
			o[k] = byte(hi)
		}
	}
}

// subMod4 returns b − c[i] mod q for the four c[i].
func subMod4(c *[4]fieldElement, b fieldElement) (t0, t1, t2, t3 uint64) {
	d0, d1, d2, d3 := int32(b-c[0]), int32(b-c[1]), int32(b-c[2]), int32(b-c[3])
	return uint64(d0 + d0>>31&q), uint64(d1 + d1>>31&q), uint64(d2 + d2>>31&q), uint64(d3 + d3>>31&q)
}

// subMod returns b − x mod q for b, x in [0, q), as a uint64.
func subMod(b, x fieldElement) uint64 {
	t := uint32(b) - uint32(x)
	return uint64(t + uint32(int32(t)>>31)&q)
}
