package mldsa

import (
	"encoding/binary"
	"math/bits"
)

// Keccak-f[1600] and the SHAKE sponges (FIPS 202), written for ML-DSA's
// needs. Every permutation goes through the dispatching keccakF1600 and
// keccakF1600x4, so an assembly variant speeds up all hashing at once.

// keccakRC are the round constants RC[ir] of ι (FIPS 202, Algorithm 6).
var keccakRC = [24]uint64{
	0x0000000000000001,
	0x0000000000008082,
	0x800000000000808A,
	0x8000000080008000,
	0x000000000000808B,
	0x0000000080000001,
	0x8000000080008081,
	0x8000000000008009,
	0x000000000000008A,
	0x0000000000000088,
	0x0000000080008009,
	0x000000008000000A,
	0x000000008000808B,
	0x800000000000008B,
	0x8000000000008089,
	0x8000000000008003,
	0x8000000000008002,
	0x8000000000000080,
	0x000000000000800A,
	0x800000008000000A,
	0x8000000080008081,
	0x8000000000008080,
	0x0000000080000001,
	0x8000000080008008,
}

// keccakF1600Generic is Keccak-f[1600] (FIPS 202, Algorithm 7, with b = 1600
// and 24 rounds) on lanes A[x, y] = a[x+5y]. Rounds alternate between a
// and a second state e: θ's d[x] is XORed into the lanes in memory, then ρ,
// π and χ go one output plane at a time, with only the plane's five b live
// (fewer spills than keeping all 25 lanes, or the five d, in registers).
//
// Inside, the lanes of complementLanes are kept complemented (the "lane
// complementing" transform of the Keccak team's implementation overview,
// as in XKCP): θ, ρ and π are linear and only move the complements, and χ,
// b[x] ⊕ (¬b[x+1] ∧ b[x+2]), written for the complemented inputs as ∧ or ∨
// of lanes, takes one NOT per plane instead of five and leaves the same
// six lanes complemented.
func keccakF1600Generic(a *[25]uint64) {
	complementLanes(a)
	var e [25]uint64
	var b0, b1, b2, b3, b4 uint64
	for round := 0; round < 24; round += 2 {
		c0 := a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20]
		c1 := a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21]
		c2 := a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22]
		c3 := a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23]
		c4 := a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24]
		// θ in place: d[x] = c[x−1] ⊕ rot(c[x+1], 1), c the column parities of a.
		d0 := c4 ^ bits.RotateLeft64(c1, 1)
		d1 := c0 ^ bits.RotateLeft64(c2, 1)
		d2 := c1 ^ bits.RotateLeft64(c3, 1)
		d3 := c2 ^ bits.RotateLeft64(c4, 1)
		d4 := c3 ^ bits.RotateLeft64(c0, 1)
		a[0] ^= d0
		a[1] ^= d1
		a[2] ^= d2
		a[3] ^= d3
		a[4] ^= d4
		a[5] ^= d0
		a[6] ^= d1
		a[7] ^= d2
		a[8] ^= d3
		a[9] ^= d4
		a[10] ^= d0
		a[11] ^= d1
		a[12] ^= d2
		a[13] ^= d3
		a[14] ^= d4
		a[15] ^= d0
		a[16] ^= d1
		a[17] ^= d2
		a[18] ^= d3
		a[19] ^= d4
		a[20] ^= d0
		a[21] ^= d1
		a[22] ^= d2
		a[23] ^= d3
		a[24] ^= d4
		// Plane 0: b[X] = rot(a[x′, X], r[x′, X]), 2x′ + 3X = 0 mod 5.
		b0 = a[0]
		b1 = bits.RotateLeft64(a[6], 44)
		b2 = bits.RotateLeft64(a[12], 43)
		b3 = bits.RotateLeft64(a[18], 21)
		b4 = bits.RotateLeft64(a[24], 14)
		e[0] = b0 ^ (b1 | b2) ^ keccakRC[round]
		e[1] = b1 ^ (^b2 | b3)
		e[2] = b2 ^ (b3 & b4)
		e[3] = b3 ^ (b4 | b0)
		e[4] = b4 ^ (b0 & b1)
		// Plane 1: b[X] = rot(a[x′, X], r[x′, X]), 2x′ + 3X = 1 mod 5.
		b0 = bits.RotateLeft64(a[3], 28)
		b1 = bits.RotateLeft64(a[9], 20)
		b2 = bits.RotateLeft64(a[10], 3)
		b3 = bits.RotateLeft64(a[16], 45)
		b4 = bits.RotateLeft64(a[22], 61)
		e[5] = b0 ^ (b1 | b2)
		e[6] = b1 ^ (b2 & b3)
		e[7] = b2 ^ (b3 | ^b4)
		e[8] = b3 ^ (b4 | b0)
		e[9] = b4 ^ (b0 & b1)
		// Plane 2: b[X] = rot(a[x′, X], r[x′, X]), 2x′ + 3X = 2 mod 5.
		b0 = bits.RotateLeft64(a[1], 1)
		b1 = bits.RotateLeft64(a[7], 6)
		b2 = bits.RotateLeft64(a[13], 25)
		b3 = bits.RotateLeft64(a[19], 8)
		b4 = bits.RotateLeft64(a[20], 18)
		e[10] = b0 ^ (b1 | b2)
		e[11] = b1 ^ (b2 & b3)
		e[12] = b2 ^ (^b3 & b4)
		e[13] = ^b3 ^ (b4 | b0)
		e[14] = b4 ^ (b0 & b1)
		// Plane 3: b[X] = rot(a[x′, X], r[x′, X]), 2x′ + 3X = 3 mod 5.
		b0 = bits.RotateLeft64(a[4], 27)
		b1 = bits.RotateLeft64(a[5], 36)
		b2 = bits.RotateLeft64(a[11], 10)
		b3 = bits.RotateLeft64(a[17], 15)
		b4 = bits.RotateLeft64(a[23], 56)
		e[15] = b0 ^ (b1 & b2)
		e[16] = b1 ^ (b2 | b3)
		e[17] = b2 ^ (^b3 | b4)
		e[18] = ^b3 ^ (b4 & b0)
		e[19] = b4 ^ (b0 | b1)
		// Plane 4: b[X] = rot(a[x′, X], r[x′, X]), 2x′ + 3X = 4 mod 5.
		b0 = bits.RotateLeft64(a[2], 62)
		b1 = bits.RotateLeft64(a[8], 55)
		b2 = bits.RotateLeft64(a[14], 39)
		b3 = bits.RotateLeft64(a[15], 41)
		b4 = bits.RotateLeft64(a[21], 2)
		e[20] = b0 ^ (^b1 & b2)
		e[21] = ^b1 ^ (b2 | b3)
		e[22] = b2 ^ (b3 & b4)
		e[23] = b3 ^ (b4 | b0)
		e[24] = b4 ^ (b0 & b1)
		c0 = e[0] ^ e[5] ^ e[10] ^ e[15] ^ e[20]
		c1 = e[1] ^ e[6] ^ e[11] ^ e[16] ^ e[21]
		c2 = e[2] ^ e[7] ^ e[12] ^ e[17] ^ e[22]
		c3 = e[3] ^ e[8] ^ e[13] ^ e[18] ^ e[23]
		c4 = e[4] ^ e[9] ^ e[14] ^ e[19] ^ e[24]
		// θ in place: d[x] = c[x−1] ⊕ rot(c[x+1], 1), c the column parities of e.
		d0 = c4 ^ bits.RotateLeft64(c1, 1)
		d1 = c0 ^ bits.RotateLeft64(c2, 1)
		d2 = c1 ^ bits.RotateLeft64(c3, 1)
		d3 = c2 ^ bits.RotateLeft64(c4, 1)
		d4 = c3 ^ bits.RotateLeft64(c0, 1)
		e[0] ^= d0
		e[1] ^= d1
		e[2] ^= d2
		e[3] ^= d3
		e[4] ^= d4
		e[5] ^= d0
		e[6] ^= d1
		e[7] ^= d2
		e[8] ^= d3
		e[9] ^= d4
		e[10] ^= d0
		e[11] ^= d1
		e[12] ^= d2
		e[13] ^= d3
		e[14] ^= d4
		e[15] ^= d0
		e[16] ^= d1
		e[17] ^= d2
		e[18] ^= d3
		e[19] ^= d4
		e[20] ^= d0
		e[21] ^= d1
		e[22] ^= d2
		e[23] ^= d3
		e[24] ^= d4
		// Plane 0: b[X] = rot(e[x′, X], r[x′, X]), 2x′ + 3X = 0 mod 5.
		b0 = e[0]
		b1 = bits.RotateLeft64(e[6], 44)
		b2 = bits.RotateLeft64(e[12], 43)
		b3 = bits.RotateLeft64(e[18], 21)
		b4 = bits.RotateLeft64(e[24], 14)
		a[0] = b0 ^ (b1 | b2) ^ keccakRC[round+1]
		a[1] = b1 ^ (^b2 | b3)
		a[2] = b2 ^ (b3 & b4)
		a[3] = b3 ^ (b4 | b0)
		a[4] = b4 ^ (b0 & b1)
		// Plane 1: b[X] = rot(e[x′, X], r[x′, X]), 2x′ + 3X = 1 mod 5.
		b0 = bits.RotateLeft64(e[3], 28)
		b1 = bits.RotateLeft64(e[9], 20)
		b2 = bits.RotateLeft64(e[10], 3)
		b3 = bits.RotateLeft64(e[16], 45)
		b4 = bits.RotateLeft64(e[22], 61)
		a[5] = b0 ^ (b1 | b2)
		a[6] = b1 ^ (b2 & b3)
		a[7] = b2 ^ (b3 | ^b4)
		a[8] = b3 ^ (b4 | b0)
		a[9] = b4 ^ (b0 & b1)
		// Plane 2: b[X] = rot(e[x′, X], r[x′, X]), 2x′ + 3X = 2 mod 5.
		b0 = bits.RotateLeft64(e[1], 1)
		b1 = bits.RotateLeft64(e[7], 6)
		b2 = bits.RotateLeft64(e[13], 25)
		b3 = bits.RotateLeft64(e[19], 8)
		b4 = bits.RotateLeft64(e[20], 18)
		a[10] = b0 ^ (b1 | b2)
		a[11] = b1 ^ (b2 & b3)
		a[12] = b2 ^ (^b3 & b4)
		a[13] = ^b3 ^ (b4 | b0)
		a[14] = b4 ^ (b0 & b1)
		// Plane 3: b[X] = rot(e[x′, X], r[x′, X]), 2x′ + 3X = 3 mod 5.
		b0 = bits.RotateLeft64(e[4], 27)
		b1 = bits.RotateLeft64(e[5], 36)
		b2 = bits.RotateLeft64(e[11], 10)
		b3 = bits.RotateLeft64(e[17], 15)
		b4 = bits.RotateLeft64(e[23], 56)
		a[15] = b0 ^ (b1 & b2)
		a[16] = b1 ^ (b2 | b3)
		a[17] = b2 ^ (^b3 | b4)
		a[18] = ^b3 ^ (b4 & b0)
		a[19] = b4 ^ (b0 | b1)
		// Plane 4: b[X] = rot(e[x′, X], r[x′, X]), 2x′ + 3X = 4 mod 5.
		b0 = bits.RotateLeft64(e[2], 62)
		b1 = bits.RotateLeft64(e[8], 55)
		b2 = bits.RotateLeft64(e[14], 39)
		b3 = bits.RotateLeft64(e[15], 41)
		b4 = bits.RotateLeft64(e[21], 2)
		a[20] = b0 ^ (^b1 & b2)
		a[21] = ^b1 ^ (b2 | b3)
		a[22] = b2 ^ (b3 & b4)
		a[23] = b3 ^ (b4 | b0)
		a[24] = b4 ^ (b0 & b1)
	}
	complementLanes(a)
}

// complementLanes complements the lanes A[1, 0], A[2, 0], A[3, 1],
// A[2, 2], A[2, 3] and A[0, 4], which keccakF1600Generic keeps
// complemented.
func complementLanes(a *[25]uint64) {
	a[1], a[2], a[8], a[12], a[17], a[20] = ^a[1], ^a[2], ^a[8], ^a[12], ^a[17], ^a[20]
}

// Rates of the two sponges, in bytes (FIPS 202, §6.2).
const (
	shake128Rate = 168
	shake256Rate = 136
)

// shake is a SHAKE128 or SHAKE256 sponge: absorb with write, then squeeze
// with read (the first read pads). It holds no pointers and lives on the
// stack.
type shake struct {
	a         [25]uint64
	rate      int // bytes
	pos       int // bytes absorbed into, or squeezed from, the current block
	squeezing bool
	buf       [shake128Rate]byte // the current output block while squeezing
}

func newShake256() shake {
	var s shake
	s.rate = shake256Rate
	return s
}

func newShake128() shake {
	var s shake
	s.rate = shake128Rate
	return s
}

// write absorbs p. It must not be called after read.
func (s *shake) write(p []byte) {
	if s.rate == shake256Rate {
		s.write256(p)
		return
	}
	for len(p) > 0 {
		if s.pos == 0 && len(p) >= s.rate {
			// A whole block, lane by lane.
			for i := 0; i < s.rate/8; i++ {
				s.a[i] ^= binary.LittleEndian.Uint64(p[8*i:])
			}
			keccakF1600(&s.a)
			p = p[s.rate:]
			continue
		}
		if s.pos%8 == 0 && len(p) >= 8 && s.pos+8 <= s.rate {
			s.a[s.pos/8] ^= binary.LittleEndian.Uint64(p)
			s.pos += 8
			p = p[8:]
		} else {
			s.a[s.pos/8] ^= uint64(p[0]) << (8 * (s.pos % 8))
			s.pos++
			p = p[1:]
		}
		if s.pos == s.rate {
			keccakF1600(&s.a)
			s.pos = 0
		}
	}
}

// write256 is write for SHAKE256: whole blocks go, straight from p where
// they lie whole there, through the proven shake256Absorb (runs of
// absorbMaxBlocks) and shake256AbsorbBlock (the rest, and a block
// completed in s.buf); the bytes of a block not yet whole wait in
// s.buf[:s.pos].
func (s *shake) write256(p []byte) {
	if s.pos > 0 {
		n := copy(s.buf[s.pos:shake256Rate], p)
		s.pos += n
		p = p[n:]
		if s.pos < shake256Rate {
			return
		}
		shake256AbsorbBlock(&s.a, (*[shake256Rate]byte)(s.buf[:shake256Rate]))
		s.pos = 0
	}
	for len(p) >= absorbMaxBlocks*shake256Rate {
		n := uint64(absorbMaxBlocks)
		shake256Absorb(&s.a, (*[absorbMaxBlocks * shake256Rate]byte)(p), &n)
		p = p[absorbMaxBlocks*shake256Rate:]
	}
	for len(p) >= shake256Rate {
		shake256AbsorbBlock(&s.a, (*[shake256Rate]byte)(p))
		p = p[shake256Rate:]
	}
	s.pos = copy(s.buf[:shake256Rate], p)
}

// writeByte absorbs one byte.
func (s *shake) writeByte(b byte) {
	if s.rate == shake256Rate {
		s.buf[s.pos] = b
		if s.pos++; s.pos == shake256Rate {
			shake256AbsorbBlock(&s.a, (*[shake256Rate]byte)(s.buf[:shake256Rate]))
			s.pos = 0
		}
		return
	}
	s.a[s.pos/8] ^= uint64(b) << (8 * (s.pos % 8))
	s.pos++
	if s.pos == s.rate {
		keccakF1600(&s.a)
		s.pos = 0
	}
}

// pad ends absorbing: the SHAKE domain bits 1111 and pad10*1 (FIPS 202,
// §6.2 and Algorithm 9), then the first permutation of the squeeze.
// For SHAKE256 the padded last block (fips202.PadBlock) is absorbed whole
// by shake256AbsorbBlock, whose permutation is the first of the squeeze.
func (s *shake) pad() {
	s.squeezing = true
	if s.rate == shake256Rate {
		clear(s.buf[s.pos:shake256Rate])
		s.buf[s.pos] ^= 0x1F
		s.buf[shake256Rate-1] ^= 0x80
		shake256AbsorbBlock(&s.a, (*[shake256Rate]byte)(s.buf[:shake256Rate]))
		s.exposeBlock()
		return
	}
	s.a[s.pos/8] ^= 0x1F << (8 * (s.pos % 8))
	s.a[(s.rate-1)/8] ^= 0x80 << 56
	s.nextBlock()
}

// nextBlock permutes and exposes the next output block in s.buf.
func (s *shake) nextBlock() {
	keccakF1600(&s.a)
	s.exposeBlock()
}

// exposeBlock copies the rate of the state to s.buf, the current output
// block (Algorithm 8, step 8).
func (s *shake) exposeBlock() {
	for i := 0; i < s.rate/8; i++ {
		binary.LittleEndian.PutUint64(s.buf[8*i:], s.a[i])
	}
	s.pos = 0
}

// finish ends SHAKE256 with a 64-byte output through the proven
// shake256Finish: the tail in s.buf[:s.pos], the padding, the first
// permutation of the squeeze and out; the rest of the first output block
// stays in s.buf for further reads.
func (s *shake) finish(out *[finishOut]byte) {
	s.squeezing = true
	n := uint64(s.pos)
	shake256Finish(&s.a, (*[shake256Rate]byte)(s.buf[:shake256Rate]), &n, out)
	s.exposeBlock()
	s.pos = finishOut
}

// read squeezes len(p) bytes; a 64-byte output of SHAKE256 (tr, μ, ρ″)
// ends the absorbing by finish.
func (s *shake) read(p []byte) {
	if !s.squeezing && s.rate == shake256Rate && len(p) == finishOut {
		s.finish((*[finishOut]byte)(p))
		return
	}
	if !s.squeezing {
		s.pad()
	}
	for len(p) > 0 {
		if s.pos == s.rate {
			s.nextBlock()
		}
		n := copy(p, s.buf[s.pos:s.rate])
		s.pos += n
		p = p[n:]
	}
}

// block returns the rest of the current output block, and moves to the
// next block on the following call.
func (s *shake) block() []byte {
	if !s.squeezing {
		s.pad()
	} else if s.pos == s.rate {
		s.nextBlock()
	}
	b := s.buf[s.pos:s.rate]
	s.pos = s.rate
	return b
}
