package mldsa

// Bit packings and the key and signature encodings (FIPS 204, §7.1, §7.2).
// Widths are public; no branch or address depends on a coefficient.

import "encoding/binary"

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

// bitPackSigned is BitPack(w, a, b) (Algorithm 17) for w with coefficients
// in [−a, b], held mod q: it packs b − w, which lies in [0, a + b].
func bitPackSigned(out []byte, w *ringElement, width int, b fieldElement) {
	var t ringElement
	for i := range t {
		t[i] = fieldSub(b, w[i])
	}
	simpleBitPack(out, &t, width)
}

// bitUnpackSigned is BitUnpack(v, a, b) (Algorithm 19): w = b − (packed
// value), mod q, for encodings where every packed value is in range.
func bitUnpackSigned(w *ringElement, in []byte, width int, b fieldElement) {
	simpleBitUnpack(w, in, width)
	for i := range w {
		w[i] = fieldSub(b, w[i])
	}
}

// bitUnpackSignedChecked is bitUnpackSigned that also reports, as 1 or 0,
// whether a packed value exceeds max, i.e. the encoding is outside [−a, b].
func bitUnpackSignedChecked(w *ringElement, in []byte, width int, b fieldElement, max uint32) uint32 {
	simpleBitUnpack(w, in, width)
	var bad uint32
	for i := range w {
		bad |= (max - uint32(w[i])) >> 31
		w[i] = fieldSub(b, w[i])
	}
	return bad
}

// hintBitPack is HintBitPack (Algorithm 20) into ω + k bytes. The hint is
// only packed for the signature that is returned, so it is public here.
func hintBitPack(out []byte, h []ringElement, ω int) {
	clear(out[:ω+len(h)])
	index := 0
	for i := range h {
		for j, v := range h[i] {
			if v != 0 {
				out[index] = byte(j)
				index++
			}
		}
		out[ω+i] = byte(index)
	}
}

// hintBitUnpack is HintBitUnpack (Algorithm 21); false means ⊥ (a malformed
// hint: counts out of order or above ω, indices not increasing, or nonzero
// padding). The signature is public.
func hintBitUnpack(h []ringElement, y []byte, ω int) bool {
	index := 0
	for i := range h {
		h[i] = ringElement{}
		end := int(y[ω+i])
		if end < index || end > ω {
			return false
		}
		first := index
		for ; index < end; index++ {
			if index > first && y[index-1] >= y[index] {
				return false
			}
			h[i][y[index]] = 1
		}
	}
	for ; index < ω; index++ {
		if y[index] != 0 {
			return false
		}
	}
	return true
}
