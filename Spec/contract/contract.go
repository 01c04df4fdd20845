// Package contract is **Trusted**: it states, once per assembly routine,
// what the routine must do and may do: its Go signature, the buffers its
// arguments point to (size, secrecy, read/write, aliasing), its result, the
// pre- and postcondition in terms of Spec/fips202 and Spec/fips204, what it
// may leak through timing, the CPU features it may use and the stack frame
// it may use, the proof level each obligation must reach and the time its
// check may take. Spec/check runs a routine under its contract.
//
// The contracts are the catalogue of assembly routines: one file per file
// stem (<stem>.go here, Emit/<stem>.go, go/asm/<stem>_amd64.s), each
// recording from init the builder of its contracts, which the first call
// of All runs. The generator, the checks and the tests derive their lists
// from All.
package contract

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
)

// Arg is one pointer argument of the Go signature.
type Arg struct {
	Name string
	// Bytes is the size of the buffer the pointer points to.
	Bytes int
	// Indirect > 0 means the pointer points to an array of Indirect
	// pointers, each to a buffer of Bytes bytes, named Name[0], Name[1]….
	// The pointer array itself is read-only and public.
	Indirect int
	Secret   bool // the buffer's contents are secret
	Read     bool // the routine may read the buffer
	Write    bool // the routine may write the buffer
}

// BufferNames lists the buffers an argument stands for.
func (a Arg) BufferNames() []string {
	if a.Indirect == 0 {
		return []string{a.Name}
	}
	var out []string
	for i := 0; i < a.Indirect; i++ {
		out = append(out, fmt.Sprintf("%s[%d]", a.Name, i))
	}
	return out
}

// Buffers maps buffer names to contents.
type Buffers map[string][]byte

// Obligations a routine's check reports, in report order.
const (
	MemorySafety = "memory safety"
	ConstantTime = "constant time"
	ABI          = "ABI"
	MCDT         = "MCDT"
	Features     = "features"
	Functional   = "functional"
)

// Obligations lists them in report order.
var Obligations = []string{MemorySafety, ConstantTime, ABI, MCDT, Features, Functional}

// Levels of proof, as vg prove reports them.
const (
	Proven = "proven" // for every input
	Tested = "tested" // on the inputs the check ran
)

// Contract is one routine's contract.
type Contract struct {
	Symbol  string // the TEXT symbol in go/asm, e.g. "KeccakF1600AMD64"
	Routine string // FIPS name, e.g. "KeccakF1600"
	Variant string // "AMD64" (baseline) or "AVX2"
	// Stem names the routine's files: go/asm/<Stem>_amd64.s and .go, and
	// Emit/<Stem>.go, Spec/contract/<Stem>.go, Proofs/<Stem>.go (if it has
	// hints) and go/mldsa/<Stem>.go. The symbols of one go/mldsa routine
	// share its stem (HighBits32AVX2 and HighBits88AMD64: highbits).
	Stem string
	// GoName is the routine of go/mldsa this symbol implements; its
	// variant there is GoName+Variant (e.g. nttAVX2).
	GoName string
	// Valgrind marks the one routine that is no ML-DSA routine: valgrind's
	// client request, which go/mldsa and check_ct's driver call only when
	// built with the tag valgrind (the constant-time check,
	// tools/checks/check_ct). It has
	// no GoName and no variants; its files are built with the purego tag
	// too, so that the pure-Go path can be checked.
	Valgrind bool
	// GoSig is the Go declaration Emit writes for the symbol in go/asm,
	// with Doc (one comment line each) above it; a builder that emits
	// several variants in one loop (coefficient maps) still writes its own
	// doc, and leaves Doc empty.
	GoSig string
	Doc   []string
	Args  []Arg
	// Result is the Go result type ("" or "bool"); it sits in the
	// argument area after the pointer arguments (Go ABI0).
	Result string
	// Aliasing: every buffer is a distinct, non-overlapping object.
	NoAlias bool
	// Pre and Post state the contract in words; Check is the executable
	// postcondition.
	Pre, Post string
	// Leak says what timing may reveal. PublicControl: control flow and
	// addresses may depend on public inputs (never on secret ones).
	Leak          string
	PublicControl bool
	// PublicOut names output buffers the leak makes public (a public
	// key). A callee may get their bytes in a buffer its contract calls
	// public, but only bytes that, at the call, are what the routine
	// leaves there at the end (Spec/check: the taint run lets them pass,
	// the composition proof checks them), so it sees nothing but output.
	PublicOut []string
	// SecretControl: control flow and addresses may depend on secret
	// inputs, but only through the leak Streams.Twin defines (a rejection
	// sampler keyed by a secret seed). The checker then runs the routine on
	// pairs of inputs the leak cannot tell apart and requires the same
	// branches and addresses (Spec/check, streams.go).
	SecretControl bool
	// Features lists the CPU features the routine may use (avo's names).
	Features []string
	// MaxFrame bounds the routine's stack frame in bytes.
	MaxFrame int
	// KeccakStates > 0 says the routine computes Keccak-f[1600] on that
	// many interleaved states in buffer "a": lane A[x,y] = a[x+5y] of
	// state j is the word at a[KeccakStates*(x+5y)+j]. The checker may
	// then prove the postcondition round by round (Spec/check).
	KeccakStates int
	// Zq, when set, says the postcondition is a map over ℤq of 32-bit
	// coefficients (see ZqMap); the checker may then prove it for every
	// input.
	Zq *ZqMap
	// Streams, when set, lets the checker drive a rejection sampler with
	// chosen squeezed bytes (see Streams).
	Streams *Streams
	// Exceeds, when set, says the routine is an infinity-norm check (see
	// Exceeds); the checker may then prove the postcondition for every
	// input (Spec/check, exceeds.go).
	Exceeds *Exceeds
	// Unchanged says the postcondition is that no buffer changes: the
	// routine has no writable buffer and no result, and the checker
	// proves it from memory safety (a write to a region that is not
	// writable fails it).
	Unchanged bool
	// Lanes, when set, says the routine is a coefficient map and gives it
	// on one coefficient; the checker may then prove the postcondition
	// for every input (Spec/check, lanes.go).
	Lanes *Lanes
	// Wiring, when set, says the routine only moves bits (a packing); the
	// checker may then prove the postcondition for every input
	// (Spec/check, wiring.go).
	Wiring *Wiring
	// Packed, when set, says the routine is a coefficient map composed
	// with a bit packing (BitPack or BitUnpack); the checker may then
	// prove the postcondition for every input (Spec/check, packproof.go).
	Packed *Packed
	// Level is the proof level each obligation must reach: Proven or
	// Tested. vg prove fails when a check reports less.
	Level map[string]string
	// Budget bounds, in seconds, the time vg prove may spend on the
	// routine (summed over obligations; tools/checks/check_speed). Each is
	// about twice the slowest of three runs on the shared 2-core machine of
	// 2026-11-29 under load average 7 (KeccakF1600/AMD64 4.9-13.9 s,
	// KeccakF1600x4/AVX2 20.4-43.7 s, RejNTTPoly/AMD64 41.9-85.0 s,
	// RejNTTPolyx4/AVX2 116-160 s; NTT and NTT⁻¹ 5-14 s per functional
	// test). Raise one only with the reason in the commit.
	Budget float64
	// ExpandA, when set, says the routine is ExpandA (Algorithm 32) for
	// the k × ℓ it gives, calling rejection samplers: the checker may then
	// prove the postcondition for every ρ from the samplers' contracts
	// (Spec/check, expandaproof.go).
	ExpandA *Shape
	// Squeeze, when set, says the routine is a sponge composed with an
	// unpacking, both CALLed (see Squeeze); the checker may then prove
	// the postcondition for every seed (Spec/check, squeezeproof.go).
	Squeeze *Squeeze
	// Ball, when set, says the routine is SampleInBall (Algorithm 29, see
	// Ball); the checker may then prove the postcondition and the
	// declared leak for every seed (Spec/check, ballproof.go).
	Ball *Ball
	// HintPack, when set, says the routine is HintBitPack (Algorithm 20,
	// see HintPack); the checker may then prove the postcondition for
	// every hint meeting the precondition (Spec/check, hintpackproof.go).
	HintPack *HintPack
	// HintUnpack, when set, says the routine is HintBitUnpack (Algorithm
	// 21, see HintUnpack); the checker may then prove the postcondition
	// for every encoding (Spec/check, hintunpackproof.go).
	HintUnpack *HintUnpack
	// Compose, when set, says the routine is Spec's steps over calls of
	// proven routines (see Compose); the checker may then prove the
	// postcondition for every input (Spec/check, compose.go).
	Compose *Compose
	// Loop, when set, says the routine is a loop over the units of a
	// buffer, each a step of Spec's over calls of proven routines (see
	// Loop); the checker may then prove the postcondition for every input
	// (Spec/check, composeloop.go).
	Loop *Loop
	// Stage, when set, says a Compose routine is one method of
	// fips204.SignStages, which an Attempts routine may CALL for it (see
	// Stage).
	Stage *Stage
	// Attempts, when set, says the routine is ML-DSA.Sign_internal from
	// line 7 over CALLs of proven stage routines (see Attempts); the
	// checker may then prove the postcondition for every input
	// (Spec/check, composeattempts.go).
	Attempts *Attempts
	// Op, when set, says the routine is one operation of Spec's steps,
	// which a Compose routine may CALL for it (see Op).
	Op *Op
	// Calls lists the routines this one may CALL (TEXT symbols). The
	// checker replaces each callee by its contract: it checks the call's
	// discipline and applies the callee's Effect (Spec/check, call.go).
	Calls []string
	// Effect, for a routine others may CALL, is its postcondition as a
	// function: the buffers it writes and its result for input in, with
	// garbage from r wherever the postcondition leaves them free (the
	// package's tests check that it meets Check).
	Effect func(in Buffers, r *rand.Rand) (Buffers, byte)
	// Runs, when positive, caps the functional test's random inputs for
	// this routine below the report's (Options.Runs), for a routine whose
	// every input costs many runs of Spec (a caller of samplers, whose
	// callees are Spec itself); say in the contract why the cap is safe.
	Runs int
	// Gen draws a random input meeting the precondition.
	Gen func(r *rand.Rand) Buffers
	// Check returns an error if out (and the result byte) do not meet the
	// postcondition for input in.
	Check func(in, out Buffers, ret byte) error
}

// Shape is the k × ℓ of a parameter set (FIPS 204, Table 1).
type Shape struct{ K, L int }

// paramSets are the parameter sets of Table 1 with the suffix that names
// their routines.
var paramSets = []struct {
	name string
	p    fips204.Params
}{{"44", fips204.MLDSA44}, {"65", fips204.MLDSA65}, {"87", fips204.MLDSA87}}

// Lanes describes a coefficient map: buffers In and Out hold 256
// little-endian 32-bit words each, and for every input whose word i of
// In[k] lies in [0, Domain[k]) for all i and k, word i of Out[m] is
// Map(word i of each In)[m]. The contract's Post and Check say the same.
type Lanes struct {
	In     []string
	Domain []uint32
	Out    []string
	Map    func(in []uint32) []uint32
	// Split, for two inputs in [0, q) (too many pairs to exhaust),
	// restates Map as the FIPS algorithm computes it.
	Split *Split
	// Count names a 4-byte output that holds the number of words of
	// Out[0] equal to 1 (Map gives 0 or 1 there).
	Count string
}

// Exceeds describes a norm check: for a polynomial In of 256 words in
// [0, q) and a bound < 2³¹ (the 4-byte buffer Bound), the 4-byte output
// Flag is 1 if Of(w) ≥ bound for some word w of In, else 0. Of is the
// coefficient's magnitude (|w mod± q| for ‖w‖∞, §2.3).
type Exceeds struct {
	In, Bound, Flag string
	Of              func(w uint32) uint32
}

// Split states Map(x, y) = Join(Of(y), OfSum((x + y) mod q)) for x, y in
// [0, q): a map that reads y, and x only through the sum x + y mod q
// (MakeHint, Algorithm 39, lines 1 to 3: r1 ← HighBits(r),
// v1 ← HighBits(r + z), r1 ≠ v1, with x = z and y = r).
type Split struct {
	Of, OfSum func(uint32) uint32
	Join      func(a, b uint32) []uint32
}

// Wiring describes a routine that moves bits: for every input whose
// buffer In has a zero at each bit where InZero is true (the
// precondition), bit k of buffer Out (bit k%8 of byte k/8) is bit Bit(k)
// of In, or 0 where Bit(k) < 0. The contract's Post and Check say the
// same.
type Wiring struct {
	In, Out string
	InZero  func(bit int) bool
	Bit     func(k int) int
}

// Packed describes a coefficient map composed with a bit packing: buffer
// Words holds 256 little-endian 32-bit words and buffer Bytes an encoding
// of 256 fields of Width bits, field i being bits Width·i to
// Width·i + Width − 1 (bit k is bit k%8 of byte k/8). Map gives, for 256
// coefficients at once, what Spec makes of coefficient i alone, the same
// map m for every i. With Pack, for every input whose words are all in
// Domain, field i of Bytes is m(word i); otherwise, for every encoding,
// word i of Words is m(field i), and, when Flag names a buffer (unpacking
// only), its 4 bytes hold the little-endian word 1 if Bad(field i) for
// some i, else 0. The contract's Post and Check say the same.
type Packed struct {
	Words, Bytes string
	Width        int
	Pack         bool
	Domain       []uint32
	Map          func(x *[256]uint32) [256]uint32
	Flag         string
	Bad          func(field uint32) bool
}

// Ball describes SampleInBall (Algorithm 29) for τ = Tau: buffer Out
// holds 256 little-endian 32-bit words and Seed is c̃; the routine absorbs
// Seed into a SHAKE256 state of its own and squeezes by CALLs of
// Permutation (Keccak-f[1600] on one state), at most Blocks blocks. It
// returns 1 exactly when Algorithm 29 reads at most Blocks·136 bytes of
// SHAKE256(c̃) (the 8 bytes of signs included), and then word i of Out is
// SampleInBall(c̃)[i] mod q (0, 1 or q − 1). The contract's Post and Check
// say the same.
type Ball struct {
	Out, Seed   string
	Tau         int
	Blocks      int
	Permutation string
}

// ArgsSize is the size of the ABI0 argument area: 8 bytes per pointer,
// then the result aligned to 8 bytes.
func (c *Contract) ArgsSize() int {
	n := 8 * len(c.Args)
	if c.Result == "bool" {
		n++
	}
	return n
}

// ResultOffset is the offset of the result in the argument area.
func (c *Contract) ResultOffset() int { return 8 * len(c.Args) }

// RejNTTPolyBlocks bounds the SHAKE128 blocks every RejNTTPoly variant
// (library, assembly, Spec's contract) squeezes before it gives up:
// 16 blocks of 168 bytes hold 896 three-byte groups (2688 bytes).
//
// Source: FIPS 204, Appendix C, Table 3 lists for the rejection loops the
// least number of iterations an implementation must allow (a correct
// sampler needs more with probability below 2⁻²⁵⁶): 814 for
// ML-DSA.Sign_internal, 221 for SampleInBall, and 481 and 894 for
// RejBoundedPoly and RejNTTPoly. What is not settled here: the table text
// was not at hand to confirm which of 481 and 894 goes with which sampler,
// nor whether RejNTTPoly's iterations are counted in bytes or in
// three-byte groups. The bounds are chosen to hold under every reading: 896
// groups cover 894 of either, and the library's RejBoundedPoly bound (7
// SHAKE256 blocks, 952 bytes) covers 894 too. This is the one place that
// states the table; other comments refer here.
const RejNTTPolyBlocks = 16

// RejBoundedPolyBlocks bounds the SHAKE256 blocks every RejBoundedPoly
// variant squeezes: 7 blocks of 136 bytes hold 952 bytes, above the bound
// of Appendix C under either reading (see RejNTTPolyBlocks).
const RejBoundedPolyBlocks = 7

// SampleInBallBlocks bounds the SHAKE256 blocks every SampleInBall
// variant squeezes: 3 blocks of 136 bytes hold 400 bytes after the 8 bytes
// of signs (Algorithm 29, line 4). Appendix C's 221 iterations for
// SampleInBall (see RejNTTPolyBlocks) are allowed under either reading:
// 221 bytes read at lines 7 and 9, or 221 passes of the loop body at line
// 9, which read 221 + τ ≤ 281 bytes. Two blocks (264 bytes) meet only the
// first. TestBallBound computes the probability that Algorithm 29 reads
// more than the bound's bytes (below 2⁻²⁵⁶ by far).
const SampleInBallBlocks = 3

// maxBallBytes is SampleInBallBlocks in bytes of SHAKE256.
const maxBallBytes = SampleInBallBlocks * fips202.Rate256

// CheckBallFrom checks one SampleInBall output against Algorithm 29 on
// the bytes of read: ok reports whether it reads at most maxBallBytes
// bytes, and then out must be its result, mod q.
func CheckBallFrom(p fips204.Params, read func([]byte), out []byte) (ok bool, err error) {
	n := 0
	want := fips204.SampleInBallFrom(p, func(s []byte) { n += len(s); read(s) })
	if ok = n <= maxBallBytes; !ok {
		return false, nil
	}
	for i := 0; i < 256; i++ {
		got := binary.LittleEndian.Uint32(out[4*i:])
		w := uint32((want[i] + fips204.Q) % fips204.Q)
		if got != w {
			return true, fmt.Errorf("coefficient %d = %d, Spec SampleInBall gives %d (%d mod q)", i, got, want[i], w)
		}
	}
	return true, nil
}

// maxGroups is RejNTTPolyBlocks in three-byte groups.
const maxGroups = RejNTTPolyBlocks * 168 / 3

// groupsNeeded counts the three-byte groups Algorithm 30 consumes for seed.
func groupsNeeded(seed []byte) int { return groupsFrom(shake128(seed)) }

// shake128 returns a reader of SHAKE128(seed), the stream of Algorithm 30.
func shake128(seed []byte) func([]byte) {
	ctx := fips202.NewSHAKE128()
	ctx.Write(seed)
	return ctx.Read
}

// groupsFrom counts the groups Algorithm 30 reads from a stream (line 5).
func groupsFrom(read func([]byte)) int {
	n := 0
	fips204.RejNTTPolyFrom(func(s []byte) { n++; read(s) })
	return n
}

func lanes(b []byte) *[25]uint64 {
	var a [25]uint64
	for i := range a {
		a[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return &a
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// checkRej checks one RejNTTPoly output: out must be the Spec's result when
// the bound suffices. ok reports whether the Spec needs at most 896 groups.
func checkRej(seed, out []byte) (ok bool, err error) {
	return checkRejFrom(shake128(seed), out)
}

// checkRejFrom is checkRej with the bytes of Algorithm 30 from read.
func checkRejFrom(read func([]byte), out []byte) (ok bool, err error) {
	// One pass: Algorithm 30's result, and the groups it read on the way.
	n := 0
	want := fips204.RejNTTPolyFrom(func(s []byte) { n++; read(s) })
	if ok = n <= maxGroups; !ok {
		return false, nil
	}
	for i := 0; i < 256; i++ {
		got := binary.LittleEndian.Uint32(out[4*i:])
		if got != uint32(want[i]) {
			return true, fmt.Errorf("coefficient %d = %d, Spec RejNTTPoly gives %d", i, got, want[i])
		}
	}
	return true, nil
}

// rejEffect is RejNTTPoly's postcondition as a function on polynomial
// out of seed: Algorithm 30's polynomial when the bound suffices, else
// garbage, and whether it sufficed.
func rejEffect(seed []byte, r *rand.Rand) ([]byte, bool) {
	n := 0
	read := shake128(seed)
	want := fips204.RejNTTPolyFrom(func(s []byte) { n++; read(s) })
	if n > maxGroups {
		return randBytes(r, 1024), false
	}
	out := make([]byte, 1024)
	for i, x := range want {
		binary.LittleEndian.PutUint32(out[4*i:], uint32(x))
	}
	return out, true
}

// Streams says a routine is a rejection sampler whose squeezed bytes can
// be replaced: Check is the postcondition when polynomial j reads
// streams[j] (Blocks blocks of BlockBytes bytes) instead of SHAKE128 of its
// seed. Algorithm 30 then reads zero bytes after them (0 is accepted), so
// that a stream on which the bound runs out still ends.
//
// HalfByteBound > 0 says the sampler reads half-bytes and accepts those
// below it (Algorithm 31 with CoeffFromHalfByte, Algorithm 15: 15 for
// η = 2, 9 for η = 4); otherwise it reads three-byte groups (Algorithm 30).
// CoeffFromHalfByte is then Algorithm 15 for the sampler's η
// (fips204.CoeffFromHalfByte), against which the stream proof checks
// each acceptance and each stored coefficient.
// Twin, when set, states the declared leak of a sampler whose stream is
// secret: Twin(rng, s) is another stream from which the sampler learns
// exactly what its leak may reveal of s, and nothing more in common with it.
type Streams struct {
	Polys, Blocks, BlockBytes int
	HalfByteBound             int
	CoeffFromHalfByte         func(b byte) (int32, bool)
	Check                     func(streams [][]byte, out Buffers, ret byte) error
	Twin                      func(rng *rand.Rand, stream []byte) []byte
	// Proven says Check must be proven for every stream (Spec/check,
	// rejproof.go), not only tested on chosen ones: a missing or refuted
	// proof fails the functional obligation.
	Proven bool
	// Sponge, when set, says how each polynomial's stream is squeezed:
	// from a SHAKE state of its own, absorbed from its seed and
	// permuted only by CALLs of a Keccak-f[1600] routine. The checker
	// then proves the stream to be SHAKE of the seed (Spec/check,
	// rejproof.go), and with the callee's contract the postcondition.
	Sponge *Sponge
}

// Sponge names a sampler's seed buffer, its SHAKE rate in bytes
// (fips202.Rate128 for SHAKE128, Rate256 for SHAKE256) and the
// permutation routine it calls. Nonce, when set, names a buffer absorbed
// after the seed (RejBoundedPoly's SHAKE256(ρ′ ‖ IntegerToBytes(r, 2)),
// Algorithm 33, lines 2 and 5). With several polynomials each buffer
// holds one equal part per polynomial, polynomial j absorbing part j of
// the seed, then part j of the nonce.
type Sponge struct {
	Seed        string
	Nonce       string
	Rate        int
	Permutation string
}

// Compose describes a routine made of Spec's own steps: for every input,
// each buffer Steps returns holds what Steps computes from the routine's
// read-only buffers (and InPlace ones), run over bytes and polynomials
// of which Spec's operations (fips204.KeyGenOps) are CALLs of proven
// routines: f, the permutation of H, is a CALL of Permutation
// (Keccak-f[1600] on one state; none if empty, and then the steps may not
// apply f), and every other operation a CALL of a routine whose contract
// gives it as its Op. Steps is a function of Spec/fips204 over any values
// (e.g. fips204.H, fips204.KeyGenPkOver, fips202.AbsorbOver), which Spec runs on bytes and
// Poly; the contract only names which buffers go in and come out. Polys
// names the buffers that hold polynomials, 256 little-endian words each:
// an input one holds coefficients in [0, q) (the precondition), an output
// one what the Op that computes it writes (e.g. Power2Round's r0 mod q).
// The package's tests check that Steps on bytes and Poly meets Check.
//
// NTTPolys names the input polynomial buffers that hold elements of T_q
// (Â, as ExpandA writes it); the others hold elements of R_q. Mont names
// the output polynomial buffers that hold their Steps value times 2³² mod
// q (the Montgomery form go/mldsa keeps of a factor of MultiplyNTT),
// MontIn the input ones whose Steps value is theirs times 2⁻³². Steps may give, under the name Result, the routine's bool
// result as one truth value (fips204.VerifyOver's); the routine must then
// return it ANDed with its callees' results.
// InPlace names the output buffers whose old bytes are inputs too (a
// polynomial one's meeting the precondition); another buffer both read
// and written starts with garbage. Scratch names buffers the routine may
// write and leaves as garbage (work space too large for its frame): the
// postcondition says nothing of them.
// InRange names input polynomial buffers whose words are, by the
// precondition, x mod q for x in [lo, hi] (hi − lo < q) rather than any
// word of [0, q); Hint an input buffer of k polynomials that holds, by the
// precondition, HintBitPack's input (Algorithm 20): words 0 or 1, at most
// ω ones in all. Either is an input polynomial whose Steps value is its
// word, in [0, q).
// Count names a public, read-only 8-byte input, the little-endian count n
// (the bytes of a tail); the precondition is n ≤ Max, and the proof runs
// once for each such n, the count's bytes constants, Steps getting n as
// in[Count][0] (an int).
type Compose struct {
	Count       string
	Max         int
	P           fips204.Params // the parameter set of Steps' operations
	Permutation string
	Polys       []string
	NTTPolys    []string
	Mont        []string
	MontIn      []string
	InPlace     []string
	Scratch     []string
	InRange     map[string][2]int
	Hint        string
	Steps       func(o fips204.SignOps[any, any], in map[string][]any) map[string][]any
}

// Stage says a Compose routine is Method of fips204.SignStages ("Z",
// "R0", "Hint" or "Encode"): the method's arguments, in order, bytes and
// polynomials laid out back to back (Â by rows), are the contents of
// buffers In, back to back; its results, likewise, are Out's and then,
// for a method that gives a truth value, the routine's result. Every
// polynomial of an Out buffer has words in OutRange's range for it
// (w with w mod± q in [lo, hi]), and in OkRange's where the result is 1:
// the routine's proof checks both.
type Stage struct {
	Method            string
	In, Out           []string
	OutRange, OkRange map[string][2]int
}

// Attempts says a routine is ML-DSA.Sign_internal from line 7 as
// fips204.SignLoopOver runs it: ρ″ = Before, with f in it a CALL of
// Permutation, then for κ = 0, Step, 2·Step, … while κ < Bound (that is
// fips204.Attempts), Attempt for κ over the stage routines' CALLs (their
// contracts' Stage), until one gives σ: the routine returns true with σ
// in buffer Sigma; false when the loop ends. IntegerToBytes(κ, 2) is kept
// at bytes At and At + 1 of buffer Counter, a Scratch buffer, whose bytes
// below At hold Before's input μ and its ρ″ (Attempt's μ ‖ ρ″). Polys and
// MontIn name the polynomial inputs and those in Montgomery form (2³²
// times what the steps get); Scratch the buffers it may leave as garbage.
// The routine branches only on its stages' results, each made public
// (fips204.SignOps' Reveal, the leak their contracts declare), and on κ.
type Attempts struct {
	P             fips204.Params
	Permutation   string
	Counter       string
	At            int
	Bound, Step   int
	Sigma         string
	Polys, MontIn []string
	Scratch       []string
	Before        func(o fips204.SignOps[any, any], in map[string][]any) []any
	Attempt       func(o fips204.SignOps[any, any], st fips204.SignStages[any, any], in map[string][]any, before, kappa []any) ([]any, bool)
}

// Result is the name under which a Compose's Steps give the routine's
// result.
const Result = "(result)"

// Loop describes a routine that runs Spec's Step once for each of the
// first n units (Unit bytes each) of buffer Over, in order, n the
// little-endian 64-bit word in buffer Count (public): Carry, in place,
// ends as Step(…Step(Step(old Carry, unit 0), unit 1)…, unit n−1), for
// every n ≤ Max (Over holds Max units); for n > Max every buffer is left
// as it was. Step is a function of Spec over any values (e.g.
// fips202.AbsorbOver, whose n-fold application is fips202's
// AbsorbBlocksOver); f in it is a CALL of Permutation (Keccak-f[1600] on
// one state), and it may apply no other operation. The contract's Post
// and Check say the same; the package's tests check Step on bytes
// against Check.
type Loop struct {
	Carry, Over, Count string
	Unit, Max          int
	Permutation        string
	Step               func(o fips204.KeyGenOps[any, any], carry, unit []any) []any
}

// Op says a routine computes one operation of fips204.KeyGenOps on whole
// buffers: Name is the method ("Power2Round", "SimpleBitPack", "NTT",
// "NTTInverse", "Add"), In the polynomials it reads, Out what it writes
// (polynomials, or for a packing the bytes), Params the method's integer
// arguments (SimpleBitPack's b, 2^10 − 1 for t1). Three operations are
// not KeyGenOps' but go/mldsa's forms of them: "ToMontgomery" (w times
// Params[0] mod q), "NTTInverse" with a parameter (NTT⁻¹(w) times
// Params[0] mod q) and "MultiplyAccNTT" (2⁻³² · Σⱼ a[j] ∘ b[j] for
// Params[0] = ℓ polynomials each, a row of MatrixVectorNTT).
// Three read bytes: "ExpandA" (In: ρ; Out: the kℓ entries of Â, entry
// ℓr + s = Â[r][s]; Params k, ℓ), "RejBoundedPoly" (In: buffers whose
// bytes, back to back, are one seed ρ′ ‖ r per output polynomial, in
// equal parts; Params η) and "BitPack" (In: w, Out: the bytes; Params a,
// b). Four more read bytes: "BitUnpack" (In: the bytes, Out: w; Params a,
// b), "HintBitUnpack" (In: y, Out: h, k polynomials; Params ω; false for
// ⊥), "SampleInBall" (In: c̃, Out: c; Params τ; false where its bound of
// blocks runs out) and "SimpleBitPack" of any b of the same bit length as
// Params[0] (Algorithm 16 packs in bitlen(b) bits). "Sub" is the
// difference w − b in T_q (or R_q), "UseHint" UseHint(h, r) on each
// coefficient (Params γ2 as (q−1)/γ2), "NormBelow" the norm check (In: w
// and the 4-byte bound, Out: the 4-byte flag, 1 where ‖w‖∞ ≥ bound: the
// steps' truth value is its negation; with Of, the norm of Of(w), Of a
// coefficient-wise method of fips204.SignOps, "LowBits"). "ExpandMask"
// reads bytes (In: buffers whose bytes, back to back, are one seed
// ρ″ ‖ IntegerToBytes(κ + r, 2) per output polynomial; Params γ1),
// "HighBits" maps one polynomial (Params γ2 as (q−1)/γ2), and "MakeHint"
// two, z and r (Params γ2 as (q−1)/γ2; its Lanes' Count a 4-byte output
// after h), "HintBitPack" packs the hint (In: h, k polynomials; Out: the
// ω + k bytes of Algorithm 20; Params ω; its HintPack proof), and
// "BitPack" of z (Params γ1 − 1, γ1) packs words read in (−q/2, q/2]: the
// steps' z mod± q (§2.3). A routine whose result is a bool
// gives its outputs only when it returns true; a composition of it must
// return the AND of its callees' results.
// A composition proof (Spec/check, compose.go) uses it in place of the
// operation only after checking it against the routine's proven
// postcondition (its Lanes map, Wiring, Packed, Streams, ExpandA,
// HintUnpack, Ball or Exceeds proof).
type Op struct {
	Name    string
	In, Out []string
	Params  []int
	Of      string
}

// Squeeze describes a routine that computes, for each of its seeds, a
// function of the first bytes of SHAKE of that seed, by calls of proven
// routines only: it keeps one SHAKE state per seed in its frame (as
// Permutation's contract interleaves them), absorbs fips202's PadBlock of
// each seed, squeezes every block by a CALL of Permutation, and CALLs
// Unpack once per seed, with the seed's output buffer (Out's buffer j for
// seed j) and the first bytes of its stream (as many as Unpack's second
// buffer holds). The postcondition is then: for every j, Out's buffer j
// holds what Unpack's Effect gives for those bytes (a test checks this
// against Check). Rate is the SHAKE rate in bytes (fips202.Rate128 or
// Rate256); the seeds lie back to back in buffer Seed.
type Squeeze struct {
	Seed        string
	Rate        int
	Permutation string
	Unpack      string
	Out         string
}

// fromBytes reads b, then zeros.
func fromBytes(b []byte) func([]byte) {
	rest := b
	return func(p []byte) {
		n := copy(p, rest)
		rest = rest[n:]
		clear(p[n:])
	}
}

// rejStreams is the Streams of a sampler of polys polynomials, out[j]
// naming polynomial j's buffer.
func rejStreams(polys int, out func(j int) string) *Streams {
	return &Streams{Polys: polys, Blocks: RejNTTPolyBlocks, BlockBytes: 168,
		Check: func(streams [][]byte, o Buffers, ret byte) error {
			all := true
			for j, st := range streams {
				ok, err := checkRejFrom(fromBytes(st), o[out(j)])
				if err != nil {
					return fmt.Errorf("polynomial %d: %v", j, err)
				}
				all = all && ok
			}
			if ret != b2b(all) {
				return fmt.Errorf("returned %d, want %d (bound of %d groups)", ret, b2b(all), maxGroups)
			}
			return nil
		}}
}

// The catalogue is built on first use, not at start-up: some contracts
// hold large tables (BitPack's Domain lists up to 2^20 words), and a
// program that links the package without checking a routine (the vg
// command's keygen, sign and verify) should not pay for them.
var (
	catalogue     []*Contract
	catalogueOnce sync.Once
	builders      []func()
)

// lazily records a builder of contracts; each routine's file calls it from
// init, and All runs the builders, in that order, on first use.
func lazily(build func()) { builders = append(builders, build) }

// All lists the contracts of every assembly routine, sorted by symbol.
// Every call returns the same slice.
func All() []*Contract {
	catalogueOnce.Do(func() {
		for _, build := range builders {
			build()
		}
	})
	return catalogue
}

// register adds contracts to the catalogue; only the builders All runs
// call it.
func register(cs ...*Contract) {
	catalogue = append(catalogue, cs...)
	sort.Slice(catalogue, func(i, j int) bool { return catalogue[i].Symbol < catalogue[j].Symbol })
}

// provenExcept is a Level map: every obligation proven except the ones
// named, which are tested.
func provenExcept(tested ...string) map[string]string {
	m := map[string]string{}
	for _, ob := range Obligations {
		m[ob] = Proven
	}
	for _, ob := range tested {
		m[ob] = Tested
	}
	return m
}

func b2b(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// Lookup returns the contract of a TEXT symbol.
func Lookup(symbol string) *Contract {
	for _, c := range All() {
		if c.Symbol == symbol {
			return c
		}
	}
	return nil
}
