// Package contract is **Trusted**: it states, once per assembly routine,
// what the routine must do and may do: its Go signature, the buffers its
// arguments point to (size, secrecy, read/write, aliasing), its result, the
// pre- and postcondition in terms of Spec/fips202 and Spec/fips204, what it
// may leak through timing, the CPU features it may use and the stack frame
// it may use. Spec/check runs a routine under its contract.
package contract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

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

// Contract is one routine's contract.
type Contract struct {
	Symbol  string // the TEXT symbol in go/asm, e.g. "KeccakF1600AMD64"
	Routine string // FIPS name, e.g. "KeccakF1600"
	Variant string // "AMD64" (baseline) or "AVX2"
	GoSig   string
	Args    []Arg
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
	// Lanes, when set, says the routine is a coefficient map and gives it
	// on one coefficient; the checker may then prove the postcondition
	// for every input (Spec/check, lanes.go).
	Lanes *Lanes
	// Gen draws a random input meeting the precondition.
	Gen func(r *rand.Rand) Buffers
	// Check returns an error if out (and the result byte) do not meet the
	// postcondition for input in.
	Check func(in, out Buffers, ret byte) error
}

// Lanes describes a coefficient map: buffers In and Out hold 256
// little-endian 32-bit words each, and for every input whose word i of
// In[k] lies in [0, Domain[k]) for all i and k, word i of Out[m] is
// Map(word i of each In)[m]. The contract's Post and Check say the same.
type Lanes struct {
	In     []string
	Domain []uint32
	Out    []string
	Map    func(in []uint32) []uint32
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

// Streams says a routine is a rejection sampler whose squeezed bytes can
// be replaced: Check is the postcondition when polynomial j reads
// streams[j] (Blocks blocks of BlockBytes bytes) instead of SHAKE128 of its
// seed. Algorithm 30 then reads zero bytes after them (0 is accepted), so
// that a stream on which the bound runs out still ends.
type Streams struct {
	Polys, Blocks, BlockBytes int
	Check                     func(streams [][]byte, out Buffers, ret byte) error
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

// All lists the contracts of every assembly routine.
var All = []*Contract{
	{
		Symbol: "KeccakF1600AMD64", Routine: "KeccakF1600", Variant: "AMD64",
		GoSig: "func KeccakF1600AMD64(a *[25]uint64)",
		Args:  []Arg{{Name: "a", Bytes: 200, Secret: true, Read: true, Write: true}},
		Pre:   "a points to 25 lanes, lane A[x,y] at a[x+5y] (little-endian words)",
		Post:  "a = fips202.KeccakF1600(old a)",
		Leak:  "nothing: the state is secret",
		// The baseline variant uses general registers only.
		Features: nil, MaxFrame: 4096, NoAlias: true, KeccakStates: 1,
		Gen: func(r *rand.Rand) Buffers { return Buffers{"a": randBytes(r, 200)} },
		Check: func(in, out Buffers, _ byte) error {
			want := lanes(in["a"])
			fips202.KeccakF1600(want)
			got := lanes(out["a"])
			for i := range want {
				if got[i] != want[i] {
					return fmt.Errorf("lane %d = %#x, Spec KeccakF1600 gives %#x", i, got[i], want[i])
				}
			}
			return nil
		},
	},
	{
		Symbol: "KeccakF1600x4AVX2", Routine: "KeccakF1600x4", Variant: "AVX2",
		GoSig: "func KeccakF1600x4AVX2(a *[100]uint64)",
		Args:  []Arg{{Name: "a", Bytes: 800, Secret: true, Read: true, Write: true}},
		Pre:   "a holds four interleaved states: lane i of state j at a[4i+j]",
		Post:  "for each j, state j = fips202.KeccakF1600(old state j)",
		Leak:  "nothing: the states are secret",
		// avo names AVX2 routines' features "AVX, AVX2".
		Features: []string{"AVX", "AVX2"}, MaxFrame: 4096, NoAlias: true, KeccakStates: 4,
		Gen: func(r *rand.Rand) Buffers { return Buffers{"a": randBytes(r, 800)} },
		Check: func(in, out Buffers, _ byte) error {
			for j := 0; j < 4; j++ {
				var st, got [25]uint64
				for i := 0; i < 25; i++ {
					st[i] = binary.LittleEndian.Uint64(in["a"][8*(4*i+j):])
					got[i] = binary.LittleEndian.Uint64(out["a"][8*(4*i+j):])
				}
				fips202.KeccakF1600(&st)
				if st != got {
					return fmt.Errorf("state %d differs from Spec KeccakF1600", j)
				}
			}
			return nil
		},
	},
	{
		Symbol: "RejNTTPolyAMD64", Routine: "RejNTTPoly", Variant: "AMD64",
		GoSig: "func RejNTTPolyAMD64(a *[256]uint32, seed *[34]byte) bool",
		Args: []Arg{
			{Name: "a", Bytes: 1024, Write: true, Read: true},
			{Name: "seed", Bytes: 34, Read: true},
		},
		Result: "bool",
		Pre:    "seed = ρ ‖ s ‖ r (34 bytes, public)",
		Post: "ok ⇔ Algorithm 30 needs at most 896 three-byte groups (RejNTTPolyBlocks = 16 SHAKE128 blocks); " +
			"ok ⇒ a = fips204.RejNTTPoly(seed)",
		Leak:          "the public seed: control flow and addresses may depend on seed-derived values",
		PublicControl: true,
		Streams:       rejStreams(1, func(int) string { return "a" }),
		Features:      nil, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			return Buffers{"a": randBytes(r, 1024), "seed": randBytes(r, 34)}
		},
		Check: func(in, out Buffers, ret byte) error {
			ok, err := checkRej(in["seed"], out["a"])
			if err != nil {
				return err
			}
			if ret != b2b(ok) {
				return fmt.Errorf("returned %d, want %d (bound of %d groups)", ret, b2b(ok), maxGroups)
			}
			if !bytes.Equal(in["seed"], out["seed"]) {
				return fmt.Errorf("seed modified")
			}
			return nil
		},
	},
	{
		Symbol: "RejNTTPolyx4AVX2", Routine: "RejNTTPolyx4", Variant: "AVX2",
		GoSig: "func RejNTTPolyx4AVX2(a *[4]*[256]uint32, seeds *[4][34]byte) bool",
		Args: []Arg{
			{Name: "a", Bytes: 1024, Indirect: 4, Write: true, Read: true},
			{Name: "seeds", Bytes: 136, Read: true},
		},
		Result: "bool",
		Pre:    "seeds[j] = ρ ‖ s ‖ r for four entries (public); a[j] point to four distinct polynomials",
		Post: "ok ⇔ for every j Algorithm 30 needs at most 896 groups; " +
			"ok ⇒ for every j, *a[j] = fips204.RejNTTPoly(seeds[j])",
		Leak:          "the public seeds: control flow and addresses may depend on seed-derived values",
		PublicControl: true,
		Streams:       rejStreams(4, func(j int) string { return fmt.Sprintf("a[%d]", j) }),
		Features:      []string{"AVX", "AVX2"}, MaxFrame: 8192, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			b := Buffers{"seeds": randBytes(r, 136)}
			for j := 0; j < 4; j++ {
				b[fmt.Sprintf("a[%d]", j)] = randBytes(r, 1024)
			}
			return b
		},
		Check: func(in, out Buffers, ret byte) error {
			all := true
			for j := 0; j < 4; j++ {
				ok, err := checkRej(in["seeds"][34*j:34*j+34], out[fmt.Sprintf("a[%d]", j)])
				if err != nil {
					return fmt.Errorf("polynomial %d: %v", j, err)
				}
				all = all && ok
			}
			if ret != b2b(all) {
				return fmt.Errorf("returned %d, want %d", ret, b2b(all))
			}
			return nil
		},
	},
}

// nttContract is the contract of an in-place transform of 256
// coefficients in [0, q), equal word for word to spec (Algorithm 41 or 42).
func nttContract(sym, routine, algo string, spec func(fips204.Poly) fips204.Poly) *Contract {
	want := func(in Buffers) []uint32 {
		out := spec(Poly(in["w"]))
		ws := make([]uint32, len(out))
		for i, x := range out {
			ws[i] = uint32(x)
		}
		return ws
	}
	return &Contract{
		Symbol: sym, Routine: routine, Variant: "AVX2",
		GoSig: "func " + sym + "(w *[256]uint32)",
		Args:  []Arg{{Name: "w", Bytes: 1024, Secret: true, Read: true, Write: true}},
		Pre:   "every coefficient of w in [0, q)",
		Post:  "w = fips204." + routine + "(old w) (" + algo + "), coefficients in [0, q)",
		Leak:  "nothing: the coefficients are secret (s1, s2, y, c)",
		// VPMULDQ (signed) is outside the MCDT rule; the checker still
		// reports any PMULUDQ/VPMULUDQ with a secret operand.
		Features: []string{"AVX", "AVX2"}, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			b := make([]byte, 1024)
			for i := 0; i < 256; i++ {
				binary.LittleEndian.PutUint32(b[4*i:], r.Uint32N(fips204.Q))
			}
			return Buffers{"w": b}
		},
		Zq: &ZqMap{In: []string{"w"}, Out: "w", Want: want},
		Check: func(in, out Buffers, _ byte) error {
			for i, w := range want(in) {
				if got := binary.LittleEndian.Uint32(out["w"][4*i:]); got != w {
					return fmt.Errorf("coefficient %d = %d, Spec %s gives %d", i, got, routine, w)
				}
			}
			return nil
		},
	}
}

func init() {
	All = append(All,
		nttContract("NTTAVX2", "NTT", "FIPS 204, Algorithm 41", fips204.NTT),
		nttContract("NTTInverseAVX2", "NTTInverse", "FIPS 204, Algorithm 42", fips204.NTTInverse),
		productContract("MultiplyNTTAVX2", 0),
		productContract("MultiplyAccNTT4AVX2", 4),
		productContract("MultiplyAccNTT5AVX2", 5),
		productContract("MultiplyAccNTT7AVX2", 7),
	)
}

// rInv is 2⁻³² mod q: the products of T_q take one factor in Montgomery
// form (times 2³²), so the result carries a factor 2⁻³².
const rInv = 8265825

// productContract is the contract of MultiplyNTT (Algorithm 45) for l = 0,
// or of one row of MatrixVectorNTT (Algorithm 48, lines 2 to 4) of length
// l: out = 2⁻³² · Σⱼ a[j] ∘ b[j], every coefficient in [0, q) in and out.
func productContract(sym string, l int) *Contract {
	routine, rows, sig := "MultiplyNTT", 1, "func "+sym+"(out, a, b *[256]uint32)"
	post := "out = 2⁻³² ∘ fips204.MultiplyNTT(a, b) (Algorithm 45), coefficients in [0, q)"
	if l > 0 {
		routine, rows = fmt.Sprintf("MultiplyAccNTT%d", l), l
		sig = fmt.Sprintf("func %s(out *[256]uint32, a, b *[%d][256]uint32)", sym, l)
		post = fmt.Sprintf("out = 2⁻³² ∘ fips204.MatrixVectorNTT({a}, b)[0] (Algorithm 48, a row of length %d), coefficients in [0, q)", l)
	}
	want := func(in Buffers) []uint32 {
		var a, b []fips204.Poly
		for j := 0; j < rows; j++ {
			a = append(a, Poly(in["a"][1024*j:]))
			b = append(b, Poly(in["b"][1024*j:]))
		}
		var w fips204.Poly
		if l == 0 {
			w = fips204.MultiplyNTT(a[0], b[0])
		} else {
			w = fips204.MatrixVectorNTT([][]fips204.Poly{a}, b)[0]
		}
		var r fips204.Poly
		for i := range r {
			r[i] = rInv
		}
		w = fips204.MultiplyNTT(w, r)
		ws := make([]uint32, len(w))
		for i, x := range w {
			ws[i] = uint32(x)
		}
		return ws
	}
	return &Contract{
		Symbol: sym, Routine: routine, Variant: "AVX2", GoSig: sig,
		Args: []Arg{
			{Name: "out", Bytes: 1024, Secret: true, Write: true},
			{Name: "a", Bytes: 1024 * rows, Secret: true, Read: true},
			{Name: "b", Bytes: 1024 * rows, Secret: true, Read: true},
		},
		Pre:      "every coefficient of a and b in [0, q); a or b in Montgomery form (times 2³² mod q)",
		Post:     post,
		Leak:     "nothing: the coefficients are secret (s1, s2, t0, y, c)",
		Features: []string{"AVX", "AVX2"}, MaxFrame: 4096, NoAlias: true,
		Gen: func(r *rand.Rand) Buffers {
			b := Buffers{"out": randBytes(r, 1024)}
			for _, name := range []string{"a", "b"} {
				buf := make([]byte, 1024*rows)
				for i := 0; i < 256*rows; i++ {
					binary.LittleEndian.PutUint32(buf[4*i:], r.Uint32N(fips204.Q))
				}
				b[name] = buf
			}
			return b
		},
		Zq: &ZqMap{In: []string{"a", "b"}, Out: "out", Bilinear: true, PerPosition: l > 0, Want: want},
		Check: func(in, out Buffers, _ byte) error {
			got := Poly(out["out"])
			for i, w := range want(in) {
				if uint32(got[i]) != w {
					return fmt.Errorf("coefficient %d = %d, Spec gives %d", i, got[i], w)
				}
			}
			return nil
		},
	}
}

func b2b(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// Lookup returns the contract of a TEXT symbol.
func Lookup(symbol string) *Contract {
	for _, c := range All {
		if c.Symbol == symbol {
			return c
		}
	}
	return nil
}
