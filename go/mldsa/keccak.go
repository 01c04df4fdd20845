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
// and 24 rounds) on lanes A[x, y] = a[x+5y]. One round per iteration, every
// lane in a local so the compiler keeps what it can in registers.
func keccakF1600Generic(a *[25]uint64) {
	a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24 := a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24]
	for round := 0; round < 24; round++ {
		// θ (FIPS 202, Algorithm 1)
		c0 := a0 ^ a5 ^ a10 ^ a15 ^ a20
		c1 := a1 ^ a6 ^ a11 ^ a16 ^ a21
		c2 := a2 ^ a7 ^ a12 ^ a17 ^ a22
		c3 := a3 ^ a8 ^ a13 ^ a18 ^ a23
		c4 := a4 ^ a9 ^ a14 ^ a19 ^ a24
		d0 := c4 ^ bits.RotateLeft64(c1, 1)
		d1 := c0 ^ bits.RotateLeft64(c2, 1)
		d2 := c1 ^ bits.RotateLeft64(c3, 1)
		d3 := c2 ^ bits.RotateLeft64(c4, 1)
		d4 := c3 ^ bits.RotateLeft64(c0, 1)
		// ρ and π (Algorithms 2 and 3): b[y, 2x+3y] = rot(a[x, y] ^ d[x], r[x, y])
		b0 := a0 ^ d0
		b10 := bits.RotateLeft64(a1^d1, 1)
		b20 := bits.RotateLeft64(a2^d2, 62)
		b5 := bits.RotateLeft64(a3^d3, 28)
		b15 := bits.RotateLeft64(a4^d4, 27)
		b16 := bits.RotateLeft64(a5^d0, 36)
		b1 := bits.RotateLeft64(a6^d1, 44)
		b11 := bits.RotateLeft64(a7^d2, 6)
		b21 := bits.RotateLeft64(a8^d3, 55)
		b6 := bits.RotateLeft64(a9^d4, 20)
		b7 := bits.RotateLeft64(a10^d0, 3)
		b17 := bits.RotateLeft64(a11^d1, 10)
		b2 := bits.RotateLeft64(a12^d2, 43)
		b12 := bits.RotateLeft64(a13^d3, 25)
		b22 := bits.RotateLeft64(a14^d4, 39)
		b23 := bits.RotateLeft64(a15^d0, 41)
		b8 := bits.RotateLeft64(a16^d1, 45)
		b18 := bits.RotateLeft64(a17^d2, 15)
		b3 := bits.RotateLeft64(a18^d3, 21)
		b13 := bits.RotateLeft64(a19^d4, 8)
		b14 := bits.RotateLeft64(a20^d0, 18)
		b24 := bits.RotateLeft64(a21^d1, 2)
		b9 := bits.RotateLeft64(a22^d2, 61)
		b19 := bits.RotateLeft64(a23^d3, 56)
		b4 := bits.RotateLeft64(a24^d4, 14)
		// χ (Algorithm 4) and ι (Algorithm 6)
		a0 = b0 ^ (^b1 & b2)
		a1 = b1 ^ (^b2 & b3)
		a2 = b2 ^ (^b3 & b4)
		a3 = b3 ^ (^b4 & b0)
		a4 = b4 ^ (^b0 & b1)
		a5 = b5 ^ (^b6 & b7)
		a6 = b6 ^ (^b7 & b8)
		a7 = b7 ^ (^b8 & b9)
		a8 = b8 ^ (^b9 & b5)
		a9 = b9 ^ (^b5 & b6)
		a10 = b10 ^ (^b11 & b12)
		a11 = b11 ^ (^b12 & b13)
		a12 = b12 ^ (^b13 & b14)
		a13 = b13 ^ (^b14 & b10)
		a14 = b14 ^ (^b10 & b11)
		a15 = b15 ^ (^b16 & b17)
		a16 = b16 ^ (^b17 & b18)
		a17 = b17 ^ (^b18 & b19)
		a18 = b18 ^ (^b19 & b15)
		a19 = b19 ^ (^b15 & b16)
		a20 = b20 ^ (^b21 & b22)
		a21 = b21 ^ (^b22 & b23)
		a22 = b22 ^ (^b23 & b24)
		a23 = b23 ^ (^b24 & b20)
		a24 = b24 ^ (^b20 & b21)
		a0 ^= keccakRC[round]
	}
	a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24] = a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24
}

// keccakF1600x4Generic applies Keccak-f[1600] to four interleaved states:
// lane i of state j is a[4*i+j].
func keccakF1600x4Generic(a *[100]uint64) {
	var s [25]uint64
	for j := 0; j < 4; j++ {
		for i := range s {
			s[i] = a[4*i+j]
		}
		keccakF1600(&s)
		for i := range s {
			a[4*i+j] = s[i]
		}
	}
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

// writeByte absorbs one byte.
func (s *shake) writeByte(b byte) {
	s.a[s.pos/8] ^= uint64(b) << (8 * (s.pos % 8))
	s.pos++
	if s.pos == s.rate {
		keccakF1600(&s.a)
		s.pos = 0
	}
}

// pad ends absorbing: the SHAKE domain bits 1111 and pad10*1 (FIPS 202,
// §6.2 and Algorithm 9), then the first permutation of the squeeze.
func (s *shake) pad() {
	s.a[s.pos/8] ^= 0x1F << (8 * (s.pos % 8))
	s.a[(s.rate-1)/8] ^= 0x80 << 56
	s.squeezing = true
	s.nextBlock()
}

// nextBlock permutes and exposes the next output block in s.buf.
func (s *shake) nextBlock() {
	keccakF1600(&s.a)
	for i := 0; i < s.rate/8; i++ {
		binary.LittleEndian.PutUint64(s.buf[8*i:], s.a[i])
	}
	s.pos = 0
}

// read squeezes len(p) bytes.
func (s *shake) read(p []byte) {
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
