package fips202

import (
	"bytes"
	"crypto/sha3"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestSHAKEAgainstStdlib compares both SHAKEs with crypto/sha3 for every
// input length 0..1000 bytes, absorbing in one Write and in uneven pieces.
func TestSHAKEAgainstStdlib(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	msg := make([]byte, 1000)
	for i := range msg {
		msg[i] = byte(rng.Uint32())
	}
	type variant struct {
		name string
		spec func() *SHAKE
		std  func() *sha3.SHAKE
	}
	for _, v := range []variant{
		{"SHAKE128", NewSHAKE128, sha3.NewSHAKE128},
		{"SHAKE256", NewSHAKE256, sha3.NewSHAKE256},
	} {
		t.Run(v.name, func(t *testing.T) {
			for n := 0; n <= 1000; n++ {
				m := msg[:n]
				want := make([]byte, 300)
				std := v.std()
				std.Write(m)
				std.Read(want)

				got := make([]byte, 300)
				h := v.spec()
				h.Write(m)
				h.Read(got)
				if !bytes.Equal(got, want) {
					t.Fatalf("len %d: one Write: got %x, want %x", n, got[:16], want[:16])
				}

				// The same input in pieces of 1, 2, 3, ... bytes.
				h = v.spec()
				for rest, k := m, 1; len(rest) > 0; k++ {
					k = min(k, len(rest))
					h.Write(rest[:k])
					rest = rest[k:]
				}
				clear(got)
				h.Read(got)
				if !bytes.Equal(got, want) {
					t.Fatalf("len %d: pieces: got %x, want %x", n, got[:16], want[:16])
				}
			}
		})
	}
}

// TestSHAKESqueezeChunks squeezes many blocks in uneven Read calls and
// compares with crypto/sha3's output read at once.
func TestSHAKESqueezeChunks(t *testing.T) {
	for _, v := range []struct {
		name string
		spec func() *SHAKE
		std  func() *sha3.SHAKE
	}{
		{"SHAKE128", NewSHAKE128, sha3.NewSHAKE128},
		{"SHAKE256", NewSHAKE256, sha3.NewSHAKE256},
	} {
		t.Run(v.name, func(t *testing.T) {
			for _, chunks := range [][]int{
				{1, 167, 1, 168, 169, 500, 3},
				{135, 1, 136, 137, 0, 1000},
				{7, 13, 29, 31, 1, 2, 200, 64, 9, 1024},
			} {
				total := 0
				for _, c := range chunks {
					total += c
				}
				want := make([]byte, total)
				std := v.std()
				std.Write([]byte("squeeze"))
				std.Read(want)

				h := v.spec()
				h.Write([]byte("squeeze"))
				var got []byte
				for _, c := range chunks {
					p := make([]byte, c)
					h.Read(p)
					got = append(got, p...)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("chunks %v: output differs", chunks)
				}
			}
		})
	}
}

// TestKeccakF1600 checks the permutation directly. A SHAKE128 input M of
// 167 bytes pads to the single block P = M || 0x9F (0x1F ⊕ 0x80), so
// crypto/sha3's first output block is the first 21 lanes of S1 =
// f(P || 0^c) and its second block those of f(S1), which is f applied to a
// state whose capacity lanes are not zero.
func TestKeccakF1600(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 200; iter++ {
		m := make([]byte, 167)
		for i := range m {
			m[i] = byte(rng.Uint32())
		}
		want := make([]byte, 2*168)
		std := sha3.NewSHAKE128()
		std.Write(m)
		std.Read(want)

		var a [25]uint64
		block := append(append([]byte{}, m...), 0x9F)
		for i := 0; i < 21; i++ {
			a[i] = binary.LittleEndian.Uint64(block[8*i:])
		}
		for b := 0; b < 2; b++ {
			KeccakF1600(&a)
			for i := 0; i < 21; i++ {
				if got := binary.LittleEndian.Uint64(want[168*b+8*i:]); a[i] != got {
					t.Fatalf("iteration %d, block %d, lane %d: got %#x, want %#x", iter, b, i, a[i], got)
				}
			}
		}
	}
}

// TestKeccakF1600Zero checks the permutation of the all-zero state against
// the Keccak team's published intermediate values (KeccakF-1600-
// IntermediateValues.txt), all 25 lanes, including the capacity lanes the
// SHAKE comparison cannot see.
func TestKeccakF1600Zero(t *testing.T) {
	want := [25]uint64{
		0xF1258F7940E1DDE7, 0x84D5CCF933C0478A, 0xD598261EA65AA9EE, 0xBD1547306F80494D, 0x8B284E056253D057,
		0xFF97A42D7F8E6FD4, 0x90FEE5A0A44647C4, 0x8C5BDA0CD6192E76, 0xAD30A6F71B19059C, 0x30935AB7D08FFC64,
		0xEB5AA93F2317D635, 0xA9A6E6260D712103, 0x81A57C16DBCF555F, 0x43B831CD0347C826, 0x01F22F1A11A5569F,
		0x05E5635A21D9AE61, 0x64BEFEF28CC970F2, 0x613670957BC46611, 0xB87C5A554FD00ECB, 0x8C3EE88A1CCF32C8,
		0x940C7922AE3A2614, 0x1841F924A2C509E4, 0x16F53526E70465C2, 0x75F644E97F30A13B, 0xEAF1FF7B5CECA249,
	}
	var a [25]uint64
	KeccakF1600(&a)
	if a != want {
		t.Errorf("f(0) = %#x,\nwant %#x", a, want)
	}
}

// TestDerivedTables compares the derived ρ offsets with FIPS 202, Table 2,
// and the derived round constants' first and last values with the Keccak
// reference, as a check on the derivations (the code never reads these).
func TestDerivedTables(t *testing.T) {
	// Table 2 rows are y = 2, 1, 0, 4, 3 and columns x = 3, 4, 0, 1, 2.
	table2 := map[[2]int]int{
		{3, 2}: 153, {4, 2}: 231, {0, 2}: 3, {1, 2}: 10, {2, 2}: 171,
		{3, 1}: 55, {4, 1}: 276, {0, 1}: 36, {1, 1}: 300, {2, 1}: 6,
		{3, 0}: 28, {4, 0}: 91, {0, 0}: 0, {1, 0}: 1, {2, 0}: 190,
		{3, 4}: 120, {4, 4}: 78, {0, 4}: 210, {1, 4}: 66, {2, 4}: 253,
		{3, 3}: 21, {4, 3}: 136, {0, 3}: 105, {1, 3}: 45, {2, 3}: 15,
	}
	for xy, off := range table2 {
		if got := rotationOffsets[xy[0]+5*xy[1]]; got != off%64 {
			t.Errorf("ρ offset (%d,%d) = %d, want %d mod 64", xy[0], xy[1], got, off)
		}
	}
	for ir, want := range map[int]uint64{0: 0x1, 1: 0x8082, 2: 0x800000000000808A, 3: 0x8000000080008000, 23: 0x8000000080008008} {
		if got := roundConstant(ir); got != want {
			t.Errorf("RC[%d] = %#x, want %#x", ir, got, want)
		}
	}
}

func TestWriteAfterReadPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Write after Read did not panic")
		}
	}()
	h := NewSHAKE256()
	h.Read(make([]byte, 1))
	h.Write([]byte{1})
}

// TestPadBlockSqueeze checks the reading of SHAKE128 a sampler's proof
// rests on (Spec/check, rejproof.go): for a message M shorter than the
// rate, the state starts as PadBlock(M) in the rate and zero in the
// capacity, and output block j is the rate of f applied j+1 times.
func TestPadBlockSqueeze(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 34, 66, 135, 167} {
		for _, rate := range []int{Rate128, Rate256} {
			if n >= rate {
				continue
			}
			m := make([]byte, n)
			for i := range m {
				m[i] = byte(rng.Uint32())
			}
			want := make([]byte, 3*rate)
			var std *sha3.SHAKE
			if rate == Rate128 {
				std = sha3.NewSHAKE128()
			} else {
				std = sha3.NewSHAKE256()
			}
			std.Write(m)
			std.Read(want)
			p := PadBlock(m, rate)
			var a State
			for i, b := range p {
				a[i/8] |= uint64(b) << (8 * (i % 8))
			}
			for j := 0; j < 3; j++ {
				KeccakF1600(&a)
				for i := 0; i < rate; i++ {
					if got := byte(a[i/8] >> (8 * (i % 8))); got != want[rate*j+i] {
						t.Fatalf("n = %d, rate %d: block %d byte %d = %#x, crypto/sha3 gives %#x", n, rate, j, i, got, want[rate*j+i])
					}
				}
			}
		}
	}
}

// TestSHAKEOverAgainstStdlib compares SHAKEOver on bytes (SumSHAKE128 and
// SumSHAKE256) with crypto/sha3 for every input length 0..600 and output
// lengths around block boundaries, so that every tail length of the last
// block and a squeeze of several blocks are run.
func TestSHAKEOverAgainstStdlib(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	msg := make([]byte, 600)
	for i := range msg {
		msg[i] = byte(rng.Uint32())
	}
	for _, v := range []struct {
		sum func([]byte, int) []byte
		std func() *sha3.SHAKE
	}{{SumSHAKE128, sha3.NewSHAKE128}, {SumSHAKE256, sha3.NewSHAKE256}} {
		for n := 0; n <= len(msg); n++ {
			for _, d := range []int{0, 1, 64, 135, 136, 137, 168, 169, 400} {
				want := make([]byte, d)
				std := v.std()
				std.Write(msg[:n])
				std.Read(want)
				if got := v.sum(msg[:n], d); !bytes.Equal(got, want) {
					t.Fatalf("len %d, %d bytes out: got %x, want %x", n, d, got, want)
				}
			}
		}
	}
}
