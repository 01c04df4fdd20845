package contract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// etaParams is a parameter set with the given η (Algorithm 15 reads only η).
func etaParams(η int) fips204.Params {
	if η == 2 {
		return fips204.MLDSA44
	}
	return fips204.MLDSA65
}

// halfByteLimit is CoeffFromHalfByte's bound (Algorithm 15).
func halfByteLimit(η int) int {
	if η == 2 {
		return 15
	}
	return 9
}

// maxBoundedBytes is RejBoundedPolyBlocks in bytes.
const maxBoundedBytes = RejBoundedPolyBlocks * 136

// boundedSeed is ρ′ ‖ IntegerToBytes(r, 2) (Algorithm 33, lines 2 and 5).
func boundedSeed(seed, nonce []byte) []byte {
	return append(append([]byte{}, seed...), nonce[0], nonce[1])
}

func shake256(seed []byte) func([]byte) {
	ctx := fips202.NewSHAKE256()
	ctx.Write(seed)
	return ctx.Read
}

// checkBoundedFrom checks one RejBoundedPoly output against Algorithm 31
// on the bytes of read: ok reports whether it needs at most
// maxBoundedBytes bytes, and then out must be its result, mod q.
func checkBoundedFrom(η int, read func([]byte), out []byte) (ok bool, err error) {
	n := 0
	want := fips204.RejBoundedPolyFrom(etaParams(η), func(s []byte) { n += len(s); read(s) })
	if ok = n <= maxBoundedBytes; !ok {
		return false, nil
	}
	for i := 0; i < 256; i++ {
		got := binary.LittleEndian.Uint32(out[4*i:])
		w := uint32((want[i] + fips204.Q) % fips204.Q)
		if got != w {
			return true, fmt.Errorf("coefficient %d = %d, Spec RejBoundedPoly gives %d (%d mod q)", i, got, want[i], w)
		}
	}
	return true, nil
}

// boundedEffect is RejBoundedPoly's postcondition as a function on the
// polynomial of seed (ρ′ ‖ r): Algorithm 31's polynomial mod q when the
// bound suffices, else garbage, and whether it sufficed.
func boundedEffect(η int, seed []byte, r *rand.Rand) ([]byte, bool) {
	n := 0
	read := shake256(seed)
	want := fips204.RejBoundedPolyFrom(etaParams(η), func(s []byte) { n += len(s); read(s) })
	if n > maxBoundedBytes {
		return randBytes(r, 1024), false
	}
	out := make([]byte, 1024)
	for i, x := range want {
		binary.LittleEndian.PutUint32(out[4*i:], modQ(x))
	}
	return out, true
}

// halfByteTwin is the Twin of RejBoundedPoly: each half-byte is replaced
// by a random one on the same side of bound. What stays is where the
// rejections fall, the leak FIPS 204's implementations accept for
// Algorithm 31 (the count of rejections, and which half-bytes they are);
// the accepted values, that is the coefficients, are redrawn.
func halfByteTwin(bound int) func(rng *rand.Rand, stream []byte) []byte {
	draw := func(rng *rand.Rand, h byte) byte {
		if int(h) < bound {
			return byte(rng.IntN(bound))
		}
		return byte(bound + rng.IntN(16-bound))
	}
	return func(rng *rand.Rand, s []byte) []byte {
		t := make([]byte, len(s))
		for i, b := range s {
			t[i] = draw(rng, b&15) | draw(rng, b>>4)<<4
		}
		return t
	}
}

// boundedStreams is the Streams of a RejBoundedPoly sampler of polys
// polynomials, out[j] naming polynomial j's buffer.
func boundedStreams(η, polys int, out func(j int) string) *Streams {
	return &Streams{Polys: polys, Blocks: RejBoundedPolyBlocks, BlockBytes: fips202.Rate256,
		HalfByteBound: halfByteLimit(η), Twin: halfByteTwin(halfByteLimit(η)),
		CoeffFromHalfByte: func(b byte) (int32, bool) { return fips204.CoeffFromHalfByte(etaParams(η), b) },
		Check: func(streams [][]byte, o Buffers, ret byte) error {
			all := true
			for j, st := range streams {
				ok, err := checkBoundedFrom(η, fromBytes(st), o[out(j)])
				if err != nil {
					return fmt.Errorf("polynomial %d: %v", j, err)
				}
				all = all && ok
			}
			if ret != b2b(all) {
				return fmt.Errorf("returned %d, want %d (bound of %d bytes)", ret, b2b(all), maxBoundedBytes)
			}
			return nil
		}}
}

// boundedLeak is the leak of every RejBoundedPoly variant.
const boundedLeak = "where the rejections fall: which half-bytes of SHAKE256(ρ′ ‖ r) " +
	"Algorithm 31 rejects (lines 6 to 14), hence how many bytes and blocks it reads; " +
	"control flow and addresses may depend on the count of accepted coefficients, " +
	"never on a coefficient's value. FIPS 204's rejection makes the accepted values " +
	"independent of where the rejections fall; pq-crystals' code and Go's crypto/mldsa " +
	"leak the same. The nonce r is public."

func init() { lazily(rejboundedpolyContracts) }

func rejboundedpolyContracts() {
	for _, η := range []int{2, 4} {
		sym := fmt.Sprintf("RejBoundedPolyEta%dAMD64", η)
		register(&Contract{
			Symbol: sym, Routine: fmt.Sprintf("RejBoundedPolyEta%d", η), Variant: "AMD64",
			Stem: "rejboundedpoly", GoName: "rejBoundedPoly",
			GoSig: "func " + sym + "(a *[256]uint32, seed *[64]byte, nonce *uint16) bool",
			Doc: []string{
				fmt.Sprintf("%s is RejBoundedPoly (FIPS 204, Algorithm 31) for η = %d: it", sym, η),
				fmt.Sprintf("fills a with 256 coefficients in [−%d, %d] (mod q) sampled from", η, η),
				"SHAKE256(seed ‖ nonce), nonce little-endian (ExpandS, Algorithm 33).",
				fmt.Sprintf("It squeezes at most %d blocks (Appendix C) and returns false if they", RejBoundedPolyBlocks),
				"run out, a then holding garbage. The seed is secret: no branch or",
				"address depends on a coefficient, only on where the rejections fall.",
				"Baseline x86-64; each block is squeezed by a call of KeccakF1600AMD64.",
			},
			Level: provenExcept(), Budget: 170,
			Args: []Arg{
				{Name: "a", Bytes: 1024, Write: true, Read: true},
				{Name: "seed", Bytes: 64, Read: true, Secret: true},
				{Name: "nonce", Bytes: 2, Read: true},
			},
			Result: "bool",
			Pre:    "seed = ρ′ (64 bytes, secret); nonce = r (public)",
			Post: fmt.Sprintf("ok ⇔ Algorithm 31 reads at most %d bytes (RejBoundedPolyBlocks = %d SHAKE256 blocks); ", maxBoundedBytes, RejBoundedPolyBlocks) +
				"ok ⇒ a = fips204.RejBoundedPoly(seed ‖ nonce) mod q",
			Leak:          boundedLeak,
			SecretControl: true,
			Streams: spongeStreams(boundedStreams(η, 1, func(int) string { return "a" }),
				fips202.Rate256, "KeccakF1600AMD64", "seed", "nonce"),
			Calls: []string{"KeccakF1600AMD64"},
			// A KeyGen routine CALLs it for ExpandS (Algorithm 33).
			Op: &Op{Name: "RejBoundedPoly", In: []string{"seed", "nonce"}, Out: []string{"a"}, Params: []int{η}},
			Effect: func(in Buffers, r *rand.Rand) (Buffers, byte) {
				a, ok := boundedEffect(η, boundedSeed(in["seed"], in["nonce"]), r)
				return Buffers{"a": a}, b2b(ok)
			},
			Features: nil, MaxFrame: 4096, NoAlias: true,
			Gen: func(r *rand.Rand) Buffers {
				return Buffers{"a": randBytes(r, 1024), "seed": randBytes(r, 64), "nonce": randBytes(r, 2)}
			},
			Check: func(in, out Buffers, ret byte) error {
				ok, err := checkBoundedFrom(η, shake256(boundedSeed(in["seed"], in["nonce"])), out["a"])
				if err != nil {
					return err
				}
				if ret != b2b(ok) {
					return fmt.Errorf("returned %d, want %d (bound of %d bytes)", ret, b2b(ok), maxBoundedBytes)
				}
				if !bytes.Equal(in["seed"], out["seed"]) || !bytes.Equal(in["nonce"], out["nonce"]) {
					return fmt.Errorf("seed or nonce modified")
				}
				return nil
			},
		})
	}
}
