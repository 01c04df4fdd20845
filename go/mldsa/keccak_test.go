package mldsa

import (
	"bytes"
	"crypto/sha3"
	"math/rand/v2"
	"testing"
)

// TestSHAKE compares the sponges with crypto/sha3 on every length around
// the block boundaries, read in uneven pieces.
func TestSHAKE(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, rate := range []int{shake128Rate, shake256Rate} {
		for n := 0; n < 3*rate+9; n++ {
			msg := make([]byte, n)
			for i := range msg {
				msg[i] = byte(rng.Uint32())
			}
			var want []byte
			var s shake
			if rate == shake128Rate {
				want = sha3.SumSHAKE128(msg, 500)
				s = newShake128()
			} else {
				want = sha3.SumSHAKE256(msg, 500)
				s = newShake256()
			}
			// Absorb in two pieces, one of them byte by byte.
			cut := rng.IntN(n + 1)
			s.write(msg[:cut])
			for _, b := range msg[cut:] {
				s.writeByte(b)
			}
			got := make([]byte, 500)
			for off := 0; off < len(got); {
				k := min(1+rng.IntN(200), len(got)-off)
				s.read(got[off : off+k])
				off += k
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("rate %d, length %d: output differs", rate, n)
			}
		}
	}
}

func TestKeccakF1600x4(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var x4 [100]uint64
	for i := range x4 {
		x4[i] = rng.Uint64()
	}
	var one [4][25]uint64
	for j := 0; j < 4; j++ {
		for i := 0; i < 25; i++ {
			one[j][i] = x4[4*i+j]
		}
		keccakF1600Generic(&one[j])
	}
	keccakF1600x4(&x4)
	for j := 0; j < 4; j++ {
		for i := 0; i < 25; i++ {
			if x4[4*i+j] != one[j][i] {
				t.Fatalf("state %d lane %d differs", j, i)
			}
		}
	}
}

// TestRejNTTPolyx4 checks the four-way sampler against SHAKE128 from
// crypto/sha3 and the rejection of Algorithm 30 written out plainly.
func TestRejNTTPolyx4(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for iter := 0; iter < 20; iter++ {
		var seeds [4][34]byte
		var polys [4]ringElement
		ptrs := [4]*ringElement{&polys[0], &polys[1], &polys[2], &polys[3]}
		for j := range seeds {
			for i := range seeds[j] {
				seeds[j][i] = byte(rng.Uint32())
			}
		}
		if !rejNTTPolyx4(&ptrs, &seeds) {
			t.Fatal("ran out")
		}
		for j := range seeds {
			stream := sha3.SumSHAKE128(seeds[j][:], 3000)
			var want ringElement
			n := 0
			for i := 0; n < n256; i += 3 {
				v := uint32(stream[i]) | uint32(stream[i+1])<<8 | uint32(stream[i+2]&0x7F)<<16
				if v < q {
					want[n] = fieldElement(v)
					n++
				}
			}
			var single ringElement
			if !rejNTTPoly(&single, &seeds[j]) {
				t.Fatal("ran out")
			}
			if polys[j] != want || single != want {
				t.Fatalf("seed %d: sample differs", j)
			}
		}
	}
}
