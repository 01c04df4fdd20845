package mldsa

// shake256x4 is four SHAKE256 sponges (FIPS 202, §6.2) run in step on the
// four-way permutation keccakF1600x4: the four absorb inputs of one length
// and squeeze outputs of one length, so they always need the permutation at
// the same moment. Sponge j is state j of a (lane i at a[4*i+j]). Like
// shake, it holds no pointers and lives on the stack; where the sponge is
// (pos, squeezing) depends on lengths only, never on the data.
type shake256x4 struct {
	a         [100]uint64
	pos       int // bytes absorbed into, or squeezed from, the current block
	squeezing bool
}

// write absorbs p[j] into sponge j. The four inputs must have one length.
// It must not be called after read.
func (s *shake256x4) write(p0, p1, p2, p3 []byte) {
	n := len(p0)
	p1, p2, p3 = p1[:n], p2[:n], p3[:n]
	for i := 0; i < n; {
		l := 4 * (s.pos / 8)
		if s.pos%8 == 0 && n-i >= 8 {
			// A whole lane of each; the rate is a multiple of 8 bytes.
			s.a[l] ^= leUint64(p0[i:])
			s.a[l+1] ^= leUint64(p1[i:])
			s.a[l+2] ^= leUint64(p2[i:])
			s.a[l+3] ^= leUint64(p3[i:])
			s.pos += 8
			i += 8
		} else {
			sh := 8 * (s.pos % 8)
			s.a[l] ^= uint64(p0[i]) << sh
			s.a[l+1] ^= uint64(p1[i]) << sh
			s.a[l+2] ^= uint64(p2[i]) << sh
			s.a[l+3] ^= uint64(p3[i]) << sh
			s.pos++
			i++
		}
		if s.pos == shake256Rate {
			keccakF1600x4(&s.a)
			s.pos = 0
		}
	}
}

// pad ends absorbing in all four sponges: the SHAKE domain bits 1111 and
// pad10*1 (FIPS 202, §6.2 and Algorithm 9), then the first permutation of
// the squeeze.
func (s *shake256x4) pad() {
	l, sh := 4*(s.pos/8), 8*(s.pos%8)
	last := 4 * ((shake256Rate - 1) / 8)
	for j := 0; j < 4; j++ {
		s.a[l+j] ^= 0x1F << sh
		s.a[last+j] ^= 0x80 << 56
	}
	keccakF1600x4(&s.a)
	s.pos = 0
	s.squeezing = true
}

// read squeezes len(out0) bytes of each sponge into out0..out3, which must
// have one length.
func (s *shake256x4) read(out0, out1, out2, out3 []byte) {
	if !s.squeezing {
		s.pad()
	}
	n := len(out0)
	out1, out2, out3 = out1[:n], out2[:n], out3[:n]
	for i := 0; i < n; {
		if s.pos == shake256Rate {
			keccakF1600x4(&s.a)
			s.pos = 0
		}
		l := 4 * (s.pos / 8)
		if s.pos%8 == 0 && n-i >= 8 {
			putLEUint64(out0[i:], s.a[l])
			putLEUint64(out1[i:], s.a[l+1])
			putLEUint64(out2[i:], s.a[l+2])
			putLEUint64(out3[i:], s.a[l+3])
			s.pos += 8
			i += 8
		} else {
			sh := 8 * (s.pos % 8)
			out0[i] = byte(s.a[l] >> sh)
			out1[i] = byte(s.a[l+1] >> sh)
			out2[i] = byte(s.a[l+2] >> sh)
			out3[i] = byte(s.a[l+3] >> sh)
			s.pos++
			i++
		}
	}
}

// absorbSeedNonces starts the four sponges of ExpandS and ExpandMask:
// sponge j absorbs ρ ‖ IntegerToBytes(nonce[j], 2) (Algorithm 33, lines 2
// and 5; Algorithm 34, line 3).
func (s *shake256x4) absorbSeedNonces(ρ *[64]byte, nonces *[4]uint16) {
	s.write(ρ[:], ρ[:], ρ[:], ρ[:])
	var b [4][2]byte
	for j, r := range nonces {
		b[j] = [2]byte{byte(r), byte(r >> 8)}
	}
	s.write(b[0][:], b[1][:], b[2][:], b[3][:])
}
