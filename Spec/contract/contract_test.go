package contract

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
)

func TestArgsSizes(t *testing.T) {
	want := map[string]int{"KeccakF1600AMD64": 8, "KeccakF1600x4AVX2": 8, "RejNTTPolyAMD64": 17, "RejNTTPolyx4AVX2": 17, "NTTAVX2": 8, "NTTInverseAVX2": 8}
	for sym, n := range want {
		if c := Lookup(sym); c == nil || c.ArgsSize() != n {
			t.Errorf("%s: args size %v, want %d", sym, c, n)
		}
	}
	if Lookup("nope") != nil {
		t.Error("Lookup of an unknown symbol")
	}
}

// The postconditions accept Spec's output and reject a one-bit change.
func TestChecksAcceptSpecRejectOthers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	c := Lookup("KeccakF1600AMD64")
	in := c.Gen(rng)
	var st [25]uint64
	for i := range st {
		st[i] = binary.LittleEndian.Uint64(in["a"][8*i:])
	}
	fips202.KeccakF1600(&st)
	out := Buffers{"a": make([]byte, 200)}
	for i := range st {
		binary.LittleEndian.PutUint64(out["a"][8*i:], st[i])
	}
	if err := c.Check(in, out, 0); err != nil {
		t.Errorf("Keccak: %v", err)
	}
	out["a"][77] ^= 4
	if c.Check(in, out, 0) == nil {
		t.Error("Keccak: a wrong output accepted")
	}

	r := Lookup("RejNTTPolyAMD64")
	in = r.Gen(rng)
	poly := fips204.RejNTTPoly(in["seed"])
	out = Buffers{"a": make([]byte, 1024), "seed": in["seed"]}
	for i, v := range poly {
		binary.LittleEndian.PutUint32(out["a"][4*i:], uint32(v))
	}
	if err := r.Check(in, out, 1); err != nil {
		t.Errorf("RejNTTPoly: %v", err)
	}
	if r.Check(in, out, 0) == nil {
		t.Error("RejNTTPoly: false accepted where the bound suffices")
	}
	out["a"][0] ^= 1
	if r.Check(in, out, 1) == nil {
		t.Error("RejNTTPoly: a wrong coefficient accepted")
	}
	if n := groupsNeeded(in["seed"]); n < 256 || n > maxGroups {
		t.Errorf("groups needed = %d", n)
	}
}

// The product contracts: 2⁻³² is right, and Check accepts the product
// computed here in plain integers and rejects a changed coefficient.
func TestProductContracts(t *testing.T) {
	if uint64(rInv)<<32%fips204.Q != 1 {
		t.Fatalf("rInv · 2³² mod q ≠ 1")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sym := range []string{"MultiplyNTTAVX2", "MultiplyAccNTT4AVX2", "MultiplyAccNTT5AVX2", "MultiplyAccNTT7AVX2"} {
		c := Lookup(sym)
		if c == nil {
			t.Fatalf("%s: no contract", sym)
		}
		in := c.Gen(rng)
		rows := len(in["a"]) / 1024
		out := Buffers{"out": make([]byte, 1024), "a": in["a"], "b": in["b"]}
		for i := 0; i < 256; i++ {
			var s uint64
			for j := 0; j < rows; j++ {
				a := uint64(binary.LittleEndian.Uint32(in["a"][1024*j+4*i:]))
				b := uint64(binary.LittleEndian.Uint32(in["b"][1024*j+4*i:]))
				s += a * b % fips204.Q
			}
			binary.LittleEndian.PutUint32(out["out"][4*i:], uint32(s%fips204.Q*rInv%fips204.Q))
		}
		if err := c.Check(in, out, 0); err != nil {
			t.Errorf("%s: %v", sym, err)
		}
		out["out"][4*200] ^= 1
		if c.Check(in, out, 0) == nil {
			t.Errorf("%s: a wrong output accepted", sym)
		}
	}
}

// TestCatalogue checks what the generator, the checks and the tests read
// from every contract.
func TestCatalogue(t *testing.T) {
	if len(All()) == 0 {
		t.Fatal("no contract registered")
	}
	seen := map[string]bool{}
	for _, c := range All() {
		if seen[c.Symbol] {
			t.Errorf("%s registered twice", c.Symbol)
		}
		seen[c.Symbol] = true
		if c.Symbol != c.Routine+c.Variant {
			t.Errorf("%s: symbol is not Routine+Variant (%s+%s)", c.Symbol, c.Routine, c.Variant)
		}
		if c.Stem == "" || strings.ToLower(c.Stem) != c.Stem || (c.GoName == "") != c.Valgrind {
			t.Errorf("%s: Stem %q (lower case) and GoName %q must be set (no GoName for the valgrind request)", c.Symbol, c.Stem, c.GoName)
		}
		if !strings.HasPrefix(c.GoSig, "func "+c.Symbol+"(") {
			t.Errorf("%s: GoSig %q does not declare the symbol", c.Symbol, c.GoSig)
		}
		if len(c.Doc) > 0 && !strings.HasPrefix(c.Doc[0], c.Symbol+" ") {
			t.Errorf("%s: Doc must start with the symbol's name", c.Symbol)
		}
		for _, ob := range Obligations {
			if l := c.Level[ob]; l != Proven && l != Tested {
				t.Errorf("%s: level of %s is %q", c.Symbol, ob, l)
			}
		}
		if len(c.Level) != len(Obligations) {
			t.Errorf("%s: %d levels for %d obligations", c.Symbol, len(c.Level), len(Obligations))
		}
		if c.Budget <= 0 {
			t.Errorf("%s: no time budget", c.Symbol)
		}
		if c.Gen == nil || c.Check == nil {
			t.Errorf("%s: Gen and Check must be set", c.Symbol)
		}
	}
	for i := 1; i < len(All()); i++ {
		if All()[i-1].Symbol >= All()[i].Symbol {
			t.Errorf("All not sorted by symbol at %s", All()[i].Symbol)
		}
	}
}

// A Split restates its contract's Map: the two agree on the edges of
// [0, q)² and on random pairs, and every contract with a Split is one
// whose Map the checker cannot exhaust.
func TestSplitsRestateMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	edges := []uint32{0, 1, 2, fips204.Q - 2, fips204.Q - 1}
	n := 0
	for _, c := range All() {
		ln := c.Lanes
		if ln == nil || ln.Split == nil {
			continue
		}
		n++
		if len(ln.Domain) != 2 || ln.Domain[0] != fips204.Q || ln.Domain[1] != fips204.Q {
			t.Errorf("%s: a Split over %v, not [0, q)²", c.Symbol, ln.Domain)
		}
		var pts [][2]uint32
		for _, x := range edges {
			for _, y := range edges {
				pts = append(pts, [2]uint32{x, y})
			}
		}
		for i := 0; i < 100000; i++ {
			pts = append(pts, [2]uint32{rng.Uint32N(fips204.Q), rng.Uint32N(fips204.Q)})
		}
		for _, p := range pts {
			want := ln.Map(p[:])
			got := ln.Split.Join(ln.Split.Of(p[1]), ln.Split.OfSum((p[0]+p[1])%fips204.Q))
			if len(got) != len(want) || got[0] != want[0] {
				t.Fatalf("%s at %v: Split gives %v, Map %v", c.Symbol, p, got, want)
			}
		}
		if ln.Count != "" && len(ln.Out) == 0 {
			t.Errorf("%s: a Count without an output to count", c.Symbol)
		}
	}
	if n == 0 {
		t.Error("no contract has a Split")
	}
}

// A contract whose postcondition is that nothing changes has nothing it
// could change.
func TestUnchangedHasNoOutput(t *testing.T) {
	n := 0
	for _, c := range All() {
		if !c.Unchanged {
			continue
		}
		n++
		if c.Result != "" {
			t.Errorf("%s: Unchanged with a result", c.Symbol)
		}
		for _, a := range c.Args {
			if a.Write {
				t.Errorf("%s: Unchanged with %s writable", c.Symbol, a.Name)
			}
		}
	}
	if n == 0 {
		t.Error("no contract is Unchanged")
	}
}

// Every Effect meets its contract's Check (a caller's check applies the
// Effect in place of the callee), and a one-bit change of its output
// breaks it.
func TestEffectsMeetChecks(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 0
	for _, c := range All() {
		if c.Effect == nil {
			continue
		}
		n++
		for i := 0; i < 5; i++ {
			in := c.Gen(rng)
			out, ret := c.Effect(in, rng)
			for k, v := range in {
				if _, ok := out[k]; !ok {
					out[k] = v
				}
			}
			if err := c.Check(in, out, ret); err != nil {
				t.Fatalf("%s: Effect breaks Check: %v", c.Symbol, err)
			}
			for _, a := range c.Args {
				// A routine that returns false leaves garbage.
				// Nor is a scratch buffer's content said.
				if !a.Write || c.Result == "bool" && ret == 0 || c.Compose != nil && slices.Contains(c.Compose.Scratch, a.Name) {
					continue
				}
				bn := a.BufferNames()[0]
				out[bn][3] ^= 1
				if c.Check(in, out, ret) == nil {
					t.Errorf("%s: Check accepts a changed %s", c.Symbol, bn)
				}
				out[bn][3] ^= 1
			}
		}
	}
	zq := 0
	for _, c := range All() {
		if c.Zq != nil {
			zq++
			if c.Effect == nil {
				t.Errorf("%s: a ZqMap routine without an Effect", c.Symbol)
			}
		}
	}
	// Every ZqMap routine has its Want as Effect; the others with one:
	if n-zq != 127 {
		t.Errorf("%d contracts with an Effect besides the %d ZqMap routines, want the five samplers (RejNTTPoly ×1 on either permutation), the five permutations, the six BitUnpack decoders of t0 and z, the two SHAKE256 block absorbers, Power2RoundPoly and SimpleBitPack4, 6 and 10 (×2 each), the nine ExpandA routines, the six RejBoundedPoly samplers, BitPack3, 4, 13, 18 and 20 (×2 each), the three HintBitPack and the three HintBitUnpack, the six SampleInBall, the four UseHint and the two NormExceeds routines, the twelve ExpandMask, HighBits, LowBitsExceed and MakeHint (×4 each), the 27 sign stages, six SigEncode routines and the valgrind client request, which callers may call", n-zq, zq)
	}
	if out, ok := rejEffect(make([]byte, 34), rng); !ok || len(out) != 1024 {
		t.Errorf("rejEffect on the zero seed: ok = %v, %d bytes", ok, len(out))
	}
}

// TestStemFiles: a routine's contract lives in Spec/contract/<stem>.go, the
// stem every tree uses for it (Emit, go/mldsa, go/asm).
func TestStemFiles(t *testing.T) {
	for _, c := range All() {
		if c.Stem == "" {
			t.Errorf("%s: no file stem", c.Symbol)
			continue
		}
		if _, err := os.Stat(c.Stem + ".go"); err != nil {
			t.Errorf("%s: stem %q, but Spec/contract/%s.go: %v", c.Symbol, c.Stem, c.Stem, err)
		}
	}
}

// A sampler that squeezes by calls asks for the proof, calls its
// permutation, and reads one stream from a seed it only reads.
func TestSponges(t *testing.T) {
	n := 0
	for _, c := range All() {
		if c.Streams == nil || c.Streams.Sponge == nil {
			continue
		}
		n++
		sp := c.Streams.Sponge
		if !c.Streams.Proven || !slices.Contains(c.Calls, sp.Permutation) {
			t.Errorf("%s: a sponge sampler must be proven and call %s", c.Symbol, sp.Permutation)
		}
		if p := Lookup(sp.Permutation); p == nil || p.KeccakStates != c.Streams.Polys || p.Effect == nil {
			t.Errorf("%s: %s is not a permutation of one state per polynomial with an Effect", c.Symbol, sp.Permutation)
		}
		for i, name := range []string{sp.Seed, sp.Nonce} {
			if i == 1 && name == "" {
				continue // no nonce
			}
			found := false
			for _, a := range c.Args {
				found = found || a.Name == name && a.Read && !a.Write && a.Bytes%c.Streams.Polys == 0
			}
			if !found {
				t.Errorf("%s: no read-only seed buffer %q of %d parts", c.Symbol, name, c.Streams.Polys)
			}
		}
	}
	if n == 0 {
		t.Error("no sampler squeezes by calls")
	}
}

// A Squeeze routine's postcondition is the composition the squeeze proof
// shows: on random inputs, each output buffer set to the unpacker's Effect
// on the first bytes of SHAKE (at the contract's rate) of its seed passes
// Check, and a one-bit change of it does not. The routine calls its
// permutation, of one state per seed, and its unpacker, both with Effects.
func TestSqueezes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 0
	for _, c := range All() {
		sq := c.Squeeze
		if sq == nil {
			continue
		}
		n++
		p, u := Lookup(sq.Permutation), Lookup(sq.Unpack)
		if p == nil || u == nil || p.Effect == nil || u.Effect == nil || !slices.Contains(c.Calls, sq.Permutation) || !slices.Contains(c.Calls, sq.Unpack) {
			t.Fatalf("%s: does not call %s and %s, both with an Effect", c.Symbol, sq.Permutation, sq.Unpack)
		}
		var outs []string
		seedBytes := 0
		for _, a := range c.Args {
			if a.Name == sq.Out {
				outs = a.BufferNames()
			}
			if a.Name == sq.Seed {
				seedBytes = a.Bytes
			}
		}
		if len(outs) == 0 || len(outs) != p.KeccakStates || seedBytes%len(outs) != 0 {
			t.Fatalf("%s: %d outputs, %s has %d states, seeds of %d bytes", c.Symbol, len(outs), sq.Permutation, p.KeccakStates, seedBytes)
		}
		newSHAKE := map[int]func() *fips202.SHAKE{fips202.Rate128: fips202.NewSHAKE128, fips202.Rate256: fips202.NewSHAKE256}[sq.Rate]
		for iter := 0; iter < 10; iter++ {
			in := c.Gen(rng)
			out := Buffers{}
			for k, v := range in {
				out[k] = append([]byte(nil), v...)
			}
			size := seedBytes / len(outs)
			for j, o := range outs {
				h := newSHAKE()
				h.Write(in[sq.Seed][size*j : size*(j+1)])
				v := make([]byte, u.Args[1].Bytes)
				h.Read(v)
				w, _ := u.Effect(Buffers{u.Args[0].Name: in[o], u.Args[1].Name: v}, rng)
				out[o] = w[u.Args[0].Name]
			}
			if err := c.Check(in, out, 0); err != nil {
				t.Fatalf("%s: the composition fails Check: %v", c.Symbol, err)
			}
			o := outs[iter%len(outs)]
			out[o][5] ^= 1
			if c.Check(in, out, 0) == nil {
				t.Errorf("%s: Check accepts a changed %s", c.Symbol, o)
			}
		}
	}
	if n != 12 {
		t.Errorf("%d contracts with Squeeze, want ExpandMask's 12 (×1 AMD64, BMI2 and AVX2, ×4 AVX2 and AVX-512, ×8 AVX-512)", n)
	}
}

// A sponge sampler's Sponge and Streams.Check say what its Check says: on
// random inputs, the output Spec computes from the streams the Sponge
// names (SHAKE of its rate on seed ‖ nonce) passes both Check and
// Streams.Check, and a one-bit change fails both.
func TestSpongeStreamsMatchCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range All() {
		st := c.Streams
		if st == nil || st.Sponge == nil {
			continue
		}
		var polys []string
		for _, a := range c.Args {
			if a.Write && a.Bytes == 1024 {
				polys = append(polys, a.BufferNames()...)
			}
		}
		if len(polys) != st.Polys {
			t.Fatalf("%s: %d polynomial buffers, %d streams", c.Symbol, len(polys), st.Polys)
		}
		for i := 0; i < 5; i++ {
			in := c.Gen(rng)
			out := Buffers{}
			for k, v := range in {
				out[k] = append([]byte(nil), v...)
			}
			streams := make([][]byte, st.Polys)
			for j := range streams {
				streams[j] = spongeStream(st.Sponge, st.Polys, j, in, st.Blocks*st.BlockBytes)
				out[polys[j]] = streamOutput(t, st, streams[j])
			}
			if err := c.Check(in, out, 1); err != nil {
				t.Fatalf("%s: the sponge's output fails Check: %v", c.Symbol, err)
			}
			if err := st.Check(streams, out, 1); err != nil {
				t.Fatalf("%s: the sponge's output fails Streams.Check: %v", c.Symbol, err)
			}
			out[polys[0]][4] ^= 1
			if c.Check(in, out, 1) == nil || st.Check(streams, out, 1) == nil {
				t.Errorf("%s: a changed coefficient passes Check or Streams.Check", c.Symbol)
			}
		}
	}
}

// spongeStream is polynomial j's first n stream bytes as s says it is
// squeezed: SHAKE of the rate on part j of the seed, then of the nonce.
func spongeStream(s *Sponge, polys, j int, in Buffers, n int) []byte {
	var msg []byte
	for _, b := range []string{s.Seed, s.Nonce} {
		if b != "" {
			per := len(in[b]) / polys
			msg = append(msg, in[b][per*j:per*j+per]...)
		}
	}
	var ctx *fips202.SHAKE
	switch s.Rate {
	case fips202.Rate128:
		ctx = fips202.NewSHAKE128()
	case fips202.Rate256:
		ctx = fips202.NewSHAKE256()
	default:
		panic("rate of neither SHAKE")
	}
	ctx.Write(msg)
	out := make([]byte, n)
	ctx.Read(out)
	return out
}

// streamOutput is the polynomial Spec samples from a stream (mod q).
func streamOutput(t *testing.T, st *Streams, stream []byte) []byte {
	var p fips204.Poly
	switch st.HalfByteBound {
	case 0:
		p = fips204.RejNTTPolyFrom(fromBytes(stream))
	case 15:
		p = fips204.RejBoundedPolyFrom(fips204.MLDSA44, fromBytes(stream))
	case 9:
		p = fips204.RejBoundedPolyFrom(fips204.MLDSA65, fromBytes(stream))
	default:
		t.Fatalf("half-byte bound %d of no η", st.HalfByteBound)
	}
	out := make([]byte, 1024)
	for i, x := range p {
		binary.LittleEndian.PutUint32(out[4*i:], uint32((x+fips204.Q)%fips204.Q))
	}
	return out
}

// A half-byte sampler's CoeffFromHalfByte accepts exactly the half-bytes
// below its bound, as Algorithm 15 of one η does.
func TestHalfByteCoeffs(t *testing.T) {
	n := 0
	for _, c := range All() {
		st := c.Streams
		if st == nil || st.HalfByteBound == 0 {
			continue
		}
		n++
		if st.CoeffFromHalfByte == nil {
			t.Fatalf("%s: a half-byte sampler without CoeffFromHalfByte", c.Symbol)
		}
		η := map[int]int32{15: 2, 9: 4}[st.HalfByteBound]
		for b := byte(0); b < 16; b++ {
			v, ok := st.CoeffFromHalfByte(b)
			if η == 0 || ok != (int(b) < st.HalfByteBound) || ok && (v < -η || v > η) {
				t.Errorf("%s: CoeffFromHalfByte(%d) = %d, %v with bound %d", c.Symbol, b, v, ok, st.HalfByteBound)
			}
		}
	}
	if n != 6 {
		t.Errorf("%d half-byte samplers, want RejBoundedPoly's six (×1, ×4 AVX2 and ×4 AVX-512, η = 2 and 4)", n)
	}
}

// A packing's Map is what its Check accepts: on random inputs meeting the
// precondition, the output Map makes position by position (and a Flag, the
// OR of Bad over the fields) passes Check, and so the reading of
// Algorithms 17 and 19 as one map per coefficient is tested against
// Spec's whole encodings. A Flag is also tested on every value of one
// field at several positions, the others 0, and its negation must fail.
func TestPackedMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n := 0
	for _, c := range All() {
		pk := c.Packed
		if pk == nil {
			continue
		}
		n++
		for iter := 0; iter < 20; iter++ {
			in := c.Gen(rng)
			out := Buffers{}
			for k, v := range in {
				out[k] = append([]byte(nil), v...)
			}
			if pk.Pack {
				var w [256]uint32
				for i := range w {
					w[i] = binary.LittleEndian.Uint32(in[pk.Words][4*i:])
				}
				f := pk.Map(&w)
				enc := out[pk.Bytes]
				clear(enc)
				for i, x := range f {
					for b := 0; b < pk.Width; b++ {
						k := pk.Width*i + b
						enc[k/8] |= byte(x>>b&1) << (k % 8)
					}
				}
			} else {
				packedUnpack(pk, in[pk.Bytes], out)
			}
			if err := c.Check(in, out, 0); err != nil {
				t.Fatalf("%s: Map's output fails Check: %v", c.Symbol, err)
			}
		}
		if pk.Flag != "" {
			if pk.Pack || pk.Bad == nil {
				t.Fatalf("%s: a Flag needs an unpacking and Bad", c.Symbol)
			}
			nBad := 0
			for _, i := range []int{0, 1, 2, 85, 127, 128, 200, 255} {
				for z := uint32(0); z < 1<<pk.Width; z++ {
					in := c.Gen(rng)
					enc := in[pk.Bytes]
					clear(enc)
					for b := 0; b < pk.Width; b++ {
						k := pk.Width*i + b
						enc[k/8] |= byte(z>>b&1) << (k % 8)
					}
					out := Buffers{}
					for k, v := range in {
						out[k] = append([]byte(nil), v...)
					}
					packedUnpack(pk, enc, out)
					if err := c.Check(in, out, 0); err != nil {
						t.Fatalf("%s: field %d = %d: Map's output and Flag fail Check: %v", c.Symbol, i, z, err)
					}
					out[pk.Flag][0] ^= 1
					if c.Check(in, out, 0) == nil {
						t.Fatalf("%s: field %d = %d: Check accepts the negated flag", c.Symbol, i, z)
					}
					if pk.Bad(z) {
						nBad++
					}
				}
			}
			if nBad == 0 || nBad == 8<<pk.Width {
				t.Errorf("%s: Bad is constant", c.Symbol)
			}
		}
		if pk.Pack {
			for _, x := range pk.Domain {
				if x >= 8380417 {
					t.Fatalf("%s: Domain holds %d, not a word in [0, q)", c.Symbol, x)
				}
			}
		}
	}
	if n != 20 {
		t.Errorf("%d contracts with Packed, want 20 (BitPack and BitUnpack of 5 widths, two variants each)", n)
	}
}

// packedUnpack writes into out what pk says an unpacking makes of the
// encoding enc: Map's words and, with a Flag, the OR of Bad.
func packedUnpack(pk *Packed, enc []byte, out Buffers) {
	var z [256]uint32
	flag := uint32(0)
	for i := range z {
		for b := 0; b < pk.Width; b++ {
			k := pk.Width*i + b
			z[i] |= uint32(enc[k/8]>>(k%8)&1) << b
		}
		if pk.Flag != "" && pk.Bad(z[i]) {
			flag = 1
		}
	}
	for i, x := range pk.Map(&z) {
		binary.LittleEndian.PutUint32(out[pk.Words][4*i:], x)
	}
	if pk.Flag != "" {
		binary.LittleEndian.PutUint32(out[pk.Flag], flag)
	}
}

// SampleInBall's Check accepts Spec's output and rejects a changed
// coefficient and a wrong result; on chosen streams the bound is met
// exactly by 272 bytes and missed by one more.
func TestBalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 0
	for _, c := range All() {
		if c.Ball == nil {
			continue
		}
		n++
		b := c.Ball
		if !slices.Contains(c.Calls, b.Permutation) || !c.SecretControl || b.Blocks != SampleInBallBlocks {
			t.Errorf("%s: a SampleInBall routine calls its permutation, declares its leak and keeps the bound", c.Symbol)
		}
		p := fips204.MLDSA44
		for _, q := range []fips204.Params{fips204.MLDSA65, fips204.MLDSA87} {
			if q.Tau == b.Tau {
				p = q
			}
		}
		in := c.Gen(rng)
		want := fips204.SampleInBall(p, in["seed"])
		out := Buffers{"c": make([]byte, 1024), "seed": in["seed"]}
		for i, v := range want {
			binary.LittleEndian.PutUint32(out["c"][4*i:], uint32((v+fips204.Q)%fips204.Q))
		}
		if err := c.Check(in, out, 1); err != nil {
			t.Errorf("%s: %v", c.Symbol, err)
		}
		if c.Check(in, out, 0) == nil {
			t.Errorf("%s: false accepted where the bound suffices", c.Symbol)
		}
		out["c"][4*255] ^= 1
		if c.Check(in, out, 1) == nil {
			t.Errorf("%s: a wrong coefficient accepted", c.Symbol)
		}
		// Every byte rejected but the last one the bound allows (0).
		stream := make([]byte, maxBallBytes)
		for i := 8; i < len(stream)-b.Tau; i++ {
			stream[i] = 0xff
		}
		ok, _ := CheckBallFrom(p, fromBytes(stream), make([]byte, 1024))
		stream[len(stream)-b.Tau] = 0xff
		short, _ := CheckBallFrom(p, fromBytes(stream), make([]byte, 1024))
		if !ok || short {
			t.Errorf("%s: a stream of exactly %d bytes gives ok = %v, one more %v", c.Symbol, maxBallBytes, ok, !short)
		}
	}
	if n != 6 {
		t.Errorf("%d SampleInBall contracts, want 6 (three sets, on either permutation)", n)
	}
}

// SampleInBallBlocks allows Appendix C's 221 iterations under either
// reading (221 bytes at lines 7 and 9, or 221 passes of line 9 after the
// τ bytes of line 7), and Algorithm 29 needs more bytes than it holds
// with probability below 2⁻²⁵⁶ for every τ of Table 1: each byte of line
// 7 or 9 is rejected at iteration i with probability (255 − i)/256, and a
// dynamic program over the bytes read so far gives the mass past the
// bound (a sum of positive terms, so float64 keeps its relative error
// small).
func TestBallBound(t *testing.T) {
	room := maxBallBytes - 8
	for _, p := range []fips204.Params{fips204.MLDSA44, fips204.MLDSA65, fips204.MLDSA87} {
		if room < 221 || room < 221+p.Tau {
			t.Errorf("τ = %d: %d bytes after the signs allow fewer than Appendix C's 221 iterations under one reading", p.Tau, room)
		}
		// at[n]: probability that the iterations so far read n bytes.
		at := make([]float64, room+1)
		at[0] = 1
		past := 0.0
		for i := 256 - p.Tau; i < 256; i++ {
			rej := float64(255-i) / 256
			next := make([]float64, room+1)
			for n, pn := range at {
				if pn == 0 {
					continue
				}
				// k bytes read at iteration i: k − 1 rejected, one accepted.
				r := 1.0
				for k := 1; n+k <= room; k++ {
					next[n+k] += pn * r * (1 - rej)
					r *= rej
				}
				past += pn * r // every byte up to the bound rejected
			}
			at = next
		}
		if past >= math.Ldexp(1, -256) {
			t.Errorf("τ = %d: Algorithm 29 reads more than %d bytes after the signs with probability %g, not below 2⁻²⁵⁶", p.Tau, room, past)
		}
		t.Logf("τ = %d: more than %d bytes after the signs with probability 2^%.0f", p.Tau, room, math.Log2(past))
	}
}

// anyValues is fips204.Values on bytes and Poly held in any.
type anyValues struct{ v fips204.Values }

func (anyValues) Byte(b byte) any  { return b }
func (anyValues) Xor(a, b any) any { return a.(byte) ^ b.(byte) }
func (anyValues) Permute(s *[200]any) {
	var b [200]byte
	for i := range s {
		b[i] = s[i].(byte)
	}
	fips202.Bytes{}.Permute(&b)
	for i := range s {
		s[i] = b[i]
	}
}
func toBytes(bs []any) []byte {
	out := make([]byte, len(bs))
	for i, b := range bs {
		out[i] = b.(byte)
	}
	return out
}
func anyOf(bs []byte) []any {
	out := make([]any, len(bs))
	for i, b := range bs {
		out[i] = b
	}
	return out
}
func (o anyValues) ExpandA(rho []any) [][]any {
	var out [][]any
	for _, row := range o.v.ExpandA(toBytes(rho)) {
		var r []any
		for _, x := range row {
			r = append(r, x)
		}
		out = append(out, r)
	}
	return out
}
func (o anyValues) RejBoundedPoly(seed []any) any { return o.v.RejBoundedPoly(toBytes(seed)) }
func (o anyValues) NTT(w any) any                 { return o.v.NTT(w.(fips204.Poly)) }
func (o anyValues) NTTInverse(w any) any          { return o.v.NTTInverse(w.(fips204.Poly)) }
func (o anyValues) Zero() any                     { return o.v.Zero() }
func (o anyValues) AddNTT(a, b any) any           { return o.v.AddNTT(a.(fips204.Poly), b.(fips204.Poly)) }
func (o anyValues) MultiplyNTT(a, b any) any {
	return o.v.MultiplyNTT(a.(fips204.Poly), b.(fips204.Poly))
}
func (o anyValues) Add(a, b any) any { return o.v.Add(a.(fips204.Poly), b.(fips204.Poly)) }
func (o anyValues) Power2Round(r any) (any, any) {
	r1, r0 := o.v.Power2Round(r.(fips204.Poly))
	return r1, r0
}
func (o anyValues) SimpleBitPack(w any, b int) []any {
	return anyOf(o.v.SimpleBitPack(w.(fips204.Poly), b))
}
func (o anyValues) BitPack(w any, a, b int) []any {
	return anyOf(o.v.BitPack(w.(fips204.Poly), a, b))
}
func (o anyValues) BitUnpack(v []any, a, b int) any { return o.v.BitUnpack(toBytes(v), a, b) }
func (o anyValues) HintBitUnpack(y []any) ([]any, any) {
	h, ok := o.v.HintBitUnpack(toBytes(y))
	var out []any
	for _, w := range h {
		out = append(out, w)
	}
	return out, ok
}
func (o anyValues) SampleInBall(rho []any) any { return o.v.SampleInBall(toBytes(rho)) }
func (o anyValues) SubNTT(a, b any) any        { return o.v.SubNTT(a.(fips204.Poly), b.(fips204.Poly)) }
func (o anyValues) UseHint(h, r any) any       { return o.v.UseHint(h.(fips204.Poly), r.(fips204.Poly)) }
func (o anyValues) NormBelow(w any, bound int) any {
	return o.v.NormBelow(w.(fips204.Poly), bound)
}
func (o anyValues) Equal(a, b []any) any { return o.v.Equal(toBytes(a), toBytes(b)) }
func (o anyValues) And(a, b any) any     { return o.v.And(a.(byte), b.(byte)) }
func (o anyValues) ExpandMaskPoly(seed []any) any {
	return o.v.ExpandMaskPoly(toBytes(seed))
}
func (o anyValues) Plus(x []any, r int) []any { return anyOf(o.v.Plus(toBytes(x), r)) }
func (o anyValues) Sub(a, b any) any          { return o.v.Sub(a.(fips204.Poly), b.(fips204.Poly)) }
func (o anyValues) Neg(a any) any             { return o.v.Neg(a.(fips204.Poly)) }
func (o anyValues) HighBits(r any) any        { return o.v.HighBits(r.(fips204.Poly)) }
func (o anyValues) LowBits(r any) any         { return o.v.LowBits(r.(fips204.Poly)) }
func (o anyValues) MakeHint(z, r any) any {
	return o.v.MakeHint(z.(fips204.Poly), r.(fips204.Poly))
}
func (o anyValues) OnesAtMost(h []any, n int) any { return o.v.OnesAtMost(polys(h), n) }
func (o anyValues) ModPM(w any) any               { return o.v.ModPM(w.(fips204.Poly)) }
func (o anyValues) HintBitPack(h []any) []any     { return anyOf(o.v.HintBitPack(polys(h))) }
func (o anyValues) Reveal(b any) bool             { return o.v.Reveal(b.(byte)) }
func polys(h []any) []fips204.Poly {
	out := make([]fips204.Poly, len(h))
	for i, w := range h {
		out[i] = w.(fips204.Poly)
	}
	return out
}

// A Compose routine's Steps, run on bytes, meet its Check, and the
// permutation it names is a callee with an Effect on one state.
func TestComposes(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 0
	for _, c := range All() {
		cp := c.Compose
		if cp == nil {
			continue
		}
		n++
		if p := Lookup(cp.Permutation); cp.Permutation != "" && (p == nil || p.Effect == nil || p.KeccakStates != 1 || !slices.Contains(c.Calls, cp.Permutation)) {
			t.Fatalf("%s: %s is not a callee permuting one state with an Effect", c.Symbol, cp.Permutation)
		}
		for iter := 0; iter < 5; iter++ {
			in := c.Gen(rng)
			ins := map[string][]any{}
			for _, a := range c.Args {
				if !a.Read || (a.Write && !slices.Contains(cp.InPlace, a.Name)) {
					continue
				}
				// The count's value, as the proof gives it (within the
				// precondition).
				if a.Name == cp.Count {
					ins[a.Name] = []any{int(binary.LittleEndian.Uint64(in[a.Name]) % uint64(cp.Max+1))}
					binary.LittleEndian.PutUint64(in[a.Name], uint64(ins[a.Name][0].(int)))
					continue
				}
				if slices.Contains(cp.Polys, a.Name) {
					for k := 0; k < a.Bytes/1024; k++ {
						w := Poly(in[a.Name][1024*k : 1024*k+1024])
						if slices.Contains(cp.MontIn, a.Name) {
							for i, x := range w {
								w[i] = int32(int64(x) * rInv % fips204.Q)
							}
						}
						ins[a.Name] = append(ins[a.Name], w)
					}
					continue
				}
				ins[a.Name] = anyOf(in[a.Name])
			}
			out := Buffers{}
			for k, v := range in {
				out[k] = bytes.Clone(v)
			}
			// A routine with a result returns 1 where every sampler's
			// bound suffices (all but a negligible share of inputs), ANDed
			// with its steps' truth value (Verify's).
			ret := byte(0)
			if c.Result == "bool" {
				ret = 1
			}
			steps := cp.Steps(anyValues{fips204.Values{P: cp.P}}, ins)
			if r, ok := steps[Result]; ok {
				ret &= r[0].(byte)
				delete(steps, Result)
			}
			for name, vs := range steps {
				for i, v := range vs {
					switch v := v.(type) {
					case byte:
						out[name][i] = v
					case fips204.Poly:
						for j, x := range v {
							w := modQ(x)
							if slices.Contains(cp.Mont, name) {
								w = uint32(uint64(w) << 32 % fips204.Q)
							}
							binary.LittleEndian.PutUint32(out[name][1024*i+4*j:], w)
						}
					}
				}
			}
			if err := c.Check(in, out, ret); err != nil {
				t.Fatalf("%s: Steps on bytes: %v", c.Symbol, err)
			}
			// A change of the first output (of the result, where the
			// steps give only that) breaks Check.
			if len(steps) == 0 {
				ret ^= 1
			} else {
				out[c.Args[0].Name][0] ^= 1
			}
			if c.Check(in, out, ret) == nil {
				t.Fatalf("%s: Check accepts a flipped bit", c.Symbol)
			}
		}
	}
	if n != 79 {
		t.Errorf("%d contracts with Compose, want TrHash's 6, KeyGenPk's 6, KeyGenSeed's 6, KeyGenT's 6, KeyGen's 9, Verify's 9, SHAKE256AbsorbBlock's 2, SHAKE256Finish's 2, SignZ's, SignR0's and SignHint's 9 each and SigEncode's 6", n)
	}
}
