package check

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The proof of a coefficient map composed with a bit packing
// (contract.Packed), for a routine whose control flow and addresses do not
// depend on its inputs (the caller checks):
//
//  1. Independence: each output bit depends only on its own coefficient
//     (a field of Width bits when unpacking, a word when packing), and
//     on nothing else the routine starts with.
//     Unpacking, by taint (bit-precise for the moves, masks and shifts a
//     packing is made of; carries spread upward): 16 runs, each marking
//     the fields at one set of positions (bit b of the index set, or
//     clear) with one taint and everything else (the other fields,
//     registers, the frame, other buffers) with the other. Every output
//     bit of a marked position must carry none of the second, of an
//     unmarked one none of the first; any two positions differ in some
//     bit. Packing, where b − w and its reduction mod q carry across the
//     whole register, taint is too coarse: the symbolic run below starts
//     every other value (registers, the frame, the output's old bytes)
//     as a variable of its own, which no term may name; and each output
//     byte term must be built by OR, XOR, AND with a constant and
//     constant shifts from parts that each read one position's word.
//     Each part is evaluated on the whole Domain (exhaustion), which
//     bounds the bits it may set, and the bits a part of another
//     position may set must miss the field's bits in the byte.
//  2. One symbolic run with every coefficient a variable gives each
//     output byte (packing) or word (unpacking) as a term; renaming the
//     variable of the position a bit belongs to x and every other
//     position's z leaves a few distinct terms (one per place of a field
//     in the bytes).
//  3. Each distinct term is evaluated, with z = 0 (by 1 its bits of x's
//     position do not depend on z), on every coefficient the precondition
//     allows (the Domain's words, or all 2^Width fields), and its bits are
//     compared with the contract's Map (exhaustion).
//  4. A Flag (unpacking): the run of 2 gives its 4 bytes as a term over
//     the 256 fields (and whatever else the routine reads: registers, the
//     frame, old bytes, each a variable of its own), which must be the OR
//     over the fields of Bad for every value of every variable: its
//     circuit is cut between positions, each cut literal exhausted over
//     the 2^Width fields, and the rest shown to be the OR by SAT
//     (packflag.go).

func provePacked(f *x86.File, r *x86.Routine, c *contract.Contract, maxSteps int) (string, error) {
	pk := c.Packed
	W := pk.Width
	if W < 1 || W > 24 || pk.Map == nil || pk.Pack == (len(pk.Domain) == 0) || pk.Flag != "" && (pk.Pack || pk.Bad == nil) {
		return "", fmt.Errorf("malformed Packed")
	}
	if !hasBuffer(c, pk.Words, 4*laneWords) || !hasBuffer(c, pk.Bytes, W*laneWords/8) {
		return "", fmt.Errorf("the contract's Packed names %q and %q, not buffers of %d and %d bytes", pk.Words, pk.Bytes, 4*laneWords, W*laneWords/8)
	}
	if pk.Flag != "" && !hasBuffer(c, pk.Flag, 4) {
		return "", fmt.Errorf("the contract's Packed names flag %q, not a buffer of 4 bytes", pk.Flag)
	}
	in, out := pk.Bytes, pk.Words
	if pk.Pack {
		in, out = pk.Words, pk.Bytes
	}
	// The proof covers out and the flag: a contract that may write
	// anything else says more than it proves.
	for _, a := range c.Args {
		if a.Write && a.Name != out && a.Name != pk.Flag {
			return "", fmt.Errorf("the contract's buffer %q is writable, but Packed covers only %q and its Flag", a.Name, out)
		}
	}
	if c.Result != "" {
		return "", fmt.Errorf("the contract has a result, which Packed does not cover")
	}
	// posIn and posOut give the position of bit k of the input and output.
	wordPos := func(k int) int { return k / 32 }
	fieldPos := func(k int) int { return k / W }
	posIn, posOut := fieldPos, wordPos
	if pk.Pack {
		posIn, posOut = wordPos, fieldPos
	}
	if !pk.Pack {
		if err := packIndependence(f, r, c, in, out, posIn, posOut, maxSteps); err != nil {
			return "", err
		}
	}
	var points []uint32
	if pk.Pack {
		points = pk.Domain
	} else {
		for z := uint32(0); z < 1<<W; z++ {
			points = append(points, z)
		}
	}
	forms, m, s, err := packTerms(f, r, c, in, out, points, maxSteps)
	if err != nil {
		return "", err
	}
	if err := packExhaust(forms, points, pk.Map); err != nil {
		return "", err
	}
	flag := ""
	if pk.Flag != "" {
		if flag, err = proveFlag(s.FromBytes(m.Region(pk.Flag).Bytes), pk); err != nil {
			return "", err
		}
	}
	what := fmt.Sprintf("each of the %d words of %s packs as Map into its field of %d bits", laneWords, out, W)
	if !pk.Pack {
		what = fmt.Sprintf("each of the %d words of %s is Map of its field of %d bits", laneWords, out, W)
	}
	how := "16 taint runs: each output bit depends only on its field"
	if pk.Pack {
		how = "each output byte an OR of one-word parts, the bits each part may set bounded by exhaustion of the Domain: each field's bits depend only on its word"
	}
	return fmt.Sprintf("proven for every input: %s (%s; one symbolic run: %d distinct terms, each equal to Spec's Map on all %d coefficients the precondition allows)%s",
		what, how, len(forms), len(points), flag), nil
}

// packIndependence runs step 1.
func packIndependence(f *x86.File, r *x86.Routine, c *contract.Contract, in, out string, posIn, posOut func(int) int, maxSteps int) error {
	const regTaint = ^uint64(0)
	for b := 0; b < 8; b++ {
		for _, comp := range []bool{false, true} {
			chosen := func(j int) bool { return (j>>b&1 == 1) != comp }
			rng := rand.New(rand.NewPCG(uint64(b), 9))
			mk := func(v uint64, _, _ bool) x86.TV { return x86.TV{V: v} }
			m, _ := setup[x86.TV](x86.Taint{}, mk, f, r, c, c.Gen(rng), rng)
			for i := range m.GPR {
				if x86.Reg(i) != x86.SP {
					m.GPR[i].S = regTaint
				}
			}
			for i := range m.Vec {
				for w := range m.Vec[i] {
					m.Vec[i][w].S = regTaint
				}
			}
			for _, reg := range m.Regions {
				switch {
				case reg.Kind == x86.Buffer && reg.Name == in:
					for i := range reg.Bytes {
						for bit := 0; bit < 8; bit++ {
							if chosen(posIn(8*i + bit)) {
								reg.Bytes[i].I |= 1 << bit
							} else {
								reg.Bytes[i].S |= 1 << bit
							}
						}
					}
				case reg.Kind == x86.Buffer, reg.Kind == x86.Frame, reg.Kind == x86.Results:
					for i := range reg.Bytes {
						reg.Bytes[i].S = 0xff
					}
				}
			}
			if err := m.Run(maxSteps); err != nil {
				return fmt.Errorf("independence run (bit %d): %v", b, err)
			}
			reg := m.Region(out)
			for i, v := range reg.Bytes {
				for bit := 0; bit < 8; bit++ {
					j := posOut(8*i + bit)
					if chosen(j) && v.S>>bit&1 != 0 {
						return fmt.Errorf("%s bit %d depends on something other than coefficient %d", out, 8*i+bit, j)
					}
					if !chosen(j) && v.I>>bit&1 != 0 {
						return fmt.Errorf("%s bit %d depends on other coefficients than %d", out, 8*i+bit, j)
					}
				}
			}
		}
	}
	return nil
}

// packForm is one distinct term: bits bit..bit+n−1 of form's value are
// bits at..at+n−1 of Map(x) (pack: an output byte's bits of one field;
// unpack: an output word's bits).
type packForm struct {
	fm      *laneForm
	bit, n  int
	at      int
	where   int // a position that has it, for messages
	unpack  bool
	outName string
}

// packTerms runs step 2.
func packTerms(f *x86.File, r *x86.Routine, c *contract.Contract, in, out string, points []uint32, maxSteps int) ([]*packForm, *x86.Machine[*x86.Term], *x86.Sym, error) {
	pk := c.Packed
	W := pk.Width
	s := x86.NewSym()
	// What the routine starts with that is not a constant is a variable
	// of its own, which canonical refuses in a term.
	n := 0
	mk := func(v uint64, _, input bool) *x86.Term {
		if input {
			n++
			return s.Var("g" + strconv.Itoa(n))
		}
		return s.Const(v)
	}
	rng := rand.New(rand.NewPCG(3, 5))
	m, _ := setup[*x86.Term](s, mk, f, r, c, c.Gen(rng), rng)
	vars := make([]*x86.Term, laneWords)
	for j := range vars {
		vars[j] = s.Var(fmt.Sprintf("in0_%d", j))
	}
	reg := m.Region(in)
	if pk.Pack {
		for j, v := range vars {
			bs := make([]*x86.Term, 4)
			s.Bytes(s.And(v, s.Const(1<<32-1)), bs)
			copy(reg.Bytes[4*j:], bs)
		}
	} else {
		// Byte i of the encoding: bit t is bit 8i + t − W·p of field p.
		for i := range reg.Bytes {
			t := s.Const(0)
			for p := 8 * i / W; p <= (8*i+7)/W && p < laneWords; p++ {
				fv := s.And(vars[p], s.Const(1<<W-1))
				var part *x86.Term
				if sh := 8*i - W*p; sh >= 0 {
					part = s.Shr(fv, uint(sh))
				} else {
					part = s.Shl(fv, uint(-sh))
				}
				t = s.Or(t, part)
			}
			reg.Bytes[i] = s.And(t, s.Const(0xff))
		}
	}
	if err := m.Run(maxSteps); err != nil {
		return nil, nil, nil, fmt.Errorf("symbolic run: %v", err)
	}
	var forms []*packForm
	seen := map[string]bool{}
	zero := map[int]map[*x86.Term]*x86.Term{}
	add := func(t *x86.Term, pos, bit, n, at, where int) error {
		// By step 1 the bits checked do not depend on the other words:
		// they read as 0.
		if zero[pos] == nil {
			zero[pos] = map[*x86.Term]*x86.Term{}
		}
		t, err := zeroOthers(s, t, pos, zero[pos])
		if err != nil {
			return err
		}
		fm, err := canonical(t, pos, 1)
		if err != nil {
			return fmt.Errorf("%s near position %d: %v", out, pos, err)
		}
		key := fm.key + "|" + strconv.Itoa(bit) + "," + strconv.Itoa(n) + "," + strconv.Itoa(at)
		if !seen[key] {
			seen[key] = true
			forms = append(forms, &packForm{fm: fm, bit: bit, n: n, at: at, where: where, unpack: !pk.Pack, outName: out})
		}
		if len(forms) > 512 {
			return fmt.Errorf("more than 512 distinct terms")
		}
		return nil
	}
	oreg := m.Region(out)
	if pk.Pack {
		mb := &mayBe{s: s, points: points, memo: map[*x86.Term]map[int]uint64{}, forms: map[string]uint64{}, zero: map[int]map[*x86.Term]*x86.Term{}}
		for i := range oreg.Bytes {
			t := s.FromBytes(oreg.Bytes[i : i+1])
			parts, err := mb.of(t)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("%s byte %d: %v", out, i, err)
			}
			for p := 8 * i / W; p <= (8*i+7)/W && p < laneWords; p++ {
				lo, hi := max(8*i, W*p), min(8*i+8, W*p+W) // bits of field p in byte i
				field := (uint64(1)<<(hi-lo) - 1) << (lo - 8*i)
				for q, bits := range parts {
					if q != p && bits&field != 0 {
						return nil, nil, nil, fmt.Errorf("%s byte %d: bits %#x of field %d may depend on word %d", out, i, bits&field, p, q)
					}
				}
				if err := add(t, p, lo-8*i, hi-lo, lo-W*p, p); err != nil {
					return nil, nil, nil, err
				}
			}
		}
	} else {
		for j := 0; j < laneWords; j++ {
			if err := add(s.FromBytes(oreg.Bytes[4*j:4*j+4]), j, 0, 32, 0, j); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	return forms, m, s, nil
}

// packExhaust runs step 3.
func packExhaust(forms []*packForm, points []uint32, mp func(*[256]uint32) [256]uint32) error {
	const w = 256
	want := make([]uint32, len(points))
	for base := 0; base < len(points); base += w {
		var xs [w]uint32
		copy(xs[:], points[base:])
		ys := mp(&xs)
		copy(want[base:], ys[:])
	}
	progs := make([]*laneProg, len(forms))
	for i, pf := range forms {
		p, err := compile(pf.fm)
		if err != nil {
			return err
		}
		progs[i] = p
	}
	in := make([][w]uint64, 1)
	for base := 0; base < len(points); base += w {
		n := min(w, len(points)-base)
		for l := 0; l < n; l++ {
			in[0][l] = uint64(points[base+l])
		}
		for i, p := range progs {
			got := p.run(in, n, nil)
			pf := forms[i]
			mask := uint64(1)<<pf.n - 1
			for l := 0; l < n; l++ {
				g := got[l] >> pf.bit & mask
				e := uint64(want[base+l]) >> pf.at & mask
				if g != e {
					x := points[base+l]
					if pf.unpack {
						return fmt.Errorf("%s word %d for field %#x: the routine gives %#x, Spec %#x", pf.outName, pf.where, x, uint32(got[l]), want[base+l])
					}
					return fmt.Errorf("%s field %d for word %#x: bits %d..%d are %#x, Spec's %#x", pf.outName, pf.where, x, pf.at, pf.at+pf.n-1, g, e)
				}
			}
		}
	}
	return nil
}

// mayBe bounds, for each position, the bits of a term that the position's
// word may set: a part reading one position's word (or none) is evaluated
// on every point of the Domain and its bits ORed; OR, XOR, AND with a
// constant and constant shifts combine parts; anything else fails.
type mayBe struct {
	s      *x86.Sym
	points []uint32
	memo   map[*x86.Term]map[int]uint64
	forms  map[string]uint64 // a part's form key → the OR of its values
	zero   map[int]map[*x86.Term]*x86.Term
}

// constPos is the key of a term's constant bits in mayBe's maps.
const constPos = -1

func (mb *mayBe) of(t *x86.Term) (map[int]uint64, error) {
	if r, ok := mb.memo[t]; ok {
		return r, nil
	}
	r, err := mb.of1(t)
	if err != nil {
		return nil, err
	}
	mb.memo[t] = r
	return r, nil
}

func (mb *mayBe) of1(t *x86.Term) (map[int]uint64, error) {
	pos := -2 // the one position t reads, constPos for none
	for _, v := range x86.Vars(t) {
		var p int
		if _, err := fmt.Sscanf(v, "in0_%d", &p); err != nil || v != "in0_"+strconv.Itoa(p) {
			return nil, fmt.Errorf("a term names %q, not an input word", v)
		}
		if pos != -2 && pos != p {
			pos = -3
			break
		}
		pos = p
	}
	if pos == -2 {
		pos = constPos
	}
	if pos == constPos {
		v, ok := mb.s.Concrete(t)
		if !ok {
			return nil, fmt.Errorf("a term without variables is not constant")
		}
		return map[int]uint64{constPos: v}, nil
	}
	if pos >= 0 {
		return mb.part(t, pos)
	}
	// Several positions: combine the arguments' bounds.
	arg := func(i int) (map[int]uint64, error) { return mb.of(t.Args[i]) }
	mapAll := func(a map[int]uint64, f func(uint64) uint64) map[int]uint64 {
		out := map[int]uint64{}
		for p, b := range a {
			out[p] = f(b)
		}
		return out
	}
	switch t.Op {
	case "bvor", "bvxor":
		a, err := arg(0)
		if err != nil {
			return nil, err
		}
		b, err := arg(1)
		if err != nil {
			return nil, err
		}
		out := mapAll(a, func(x uint64) uint64 { return x })
		for p, x := range b {
			out[p] |= x
		}
		return out, nil
	case "bvand":
		for k := 0; k < 2; k++ {
			if c, ok := mb.s.Concrete(t.Args[1-k]); ok {
				a, err := arg(k)
				if err != nil {
					return nil, err
				}
				return mapAll(a, func(x uint64) uint64 { return x & c }), nil
			}
		}
	case "shl":
		a, err := arg(0)
		if err != nil {
			return nil, err
		}
		return mapAll(a, func(x uint64) uint64 { return x << t.Val }), nil
	case "lshr":
		a, err := arg(0)
		if err != nil {
			return nil, err
		}
		return mapAll(a, func(x uint64) uint64 { return x >> t.Val }), nil
	case "rol":
		a, err := arg(0)
		if err != nil {
			return nil, err
		}
		return mapAll(a, func(x uint64) uint64 { return x<<(t.Val%64) | x>>((64-t.Val%64)%64) }), nil
	}
	// Any other operator: if its arguments' bits may depend on one
	// position's word only (every other position's bounds are 0, so by
	// the invariant below no argument bit depends on those words), t
	// reads that word alone and is exhausted as a part.
	only := -1
	for i := range t.Args {
		a, err := arg(i)
		if err != nil {
			return nil, err
		}
		for p, bits := range a {
			if p == constPos || bits == 0 || p == only {
				continue
			}
			if only >= 0 {
				return nil, fmt.Errorf("operator %s combines the words of positions %d and %d", t.Op, only, p)
			}
			only = p
		}
	}
	if only < 0 {
		return nil, fmt.Errorf("operator %s of no word", t.Op)
	}
	return mb.part(t, only)
}

// part is the bound of a term that reads position pos's word alone (other
// positions' words, if named, do not matter and read as 0): the OR of its
// values on every point of the Domain. The invariant of mayBe's bounds:
// bit k of a term is a function of the words of the positions whose bound
// has bit k (and of nothing else).
func (mb *mayBe) part(t *x86.Term, pos int) (map[int]uint64, error) {
	if mb.zero[pos] == nil {
		mb.zero[pos] = map[*x86.Term]*x86.Term{}
	}
	t, err := zeroOthers(mb.s, t, pos, mb.zero[pos])
	if err != nil {
		return nil, err
	}
	fm, err := canonical(t, pos, 1)
	if err != nil {
		return nil, err
	}
	bits, ok := mb.forms[fm.key]
	if !ok {
		p, err := compile(fm)
		if err != nil {
			return nil, err
		}
		in := make([][256]uint64, 1)
		for base := 0; base < len(mb.points); base += 256 {
			n := min(256, len(mb.points)-base)
			for l := 0; l < n; l++ {
				in[0][l] = uint64(mb.points[base+l])
			}
			got := p.run(in, n, nil)
			for l := 0; l < n; l++ {
				bits |= got[l]
			}
		}
		mb.forms[fm.key] = bits
	}
	return map[int]uint64{pos: bits}, nil
}

// zeroOthers rebuilds t with every input word but position keep's as the
// constant 0, through the domain's own constructors (which fold
// constants), so that a part or a field's term keeps only what its word
// computes. Other variables stay (canonical refuses them).
func zeroOthers(s *x86.Sym, t *x86.Term, keep int, memo map[*x86.Term]*x86.Term) (*x86.Term, error) {
	if r, ok := memo[t]; ok {
		return r, nil
	}
	var args []*x86.Term
	for _, a := range t.Args {
		r, err := zeroOthers(s, a, keep, memo)
		if err != nil {
			return nil, err
		}
		args = append(args, r)
	}
	var r *x86.Term
	un := func() *x86.Term { return args[0] }
	switch t.Op {
	case "const":
		r = t
	case "var":
		r = t
		var p int
		if _, err := fmt.Sscanf(t.Name, "in0_%d", &p); err == nil && t.Name == "in0_"+strconv.Itoa(p) && p != keep {
			r = s.Const(0)
		}
	case "bvand":
		r = s.And(args[0], args[1])
	case "bvor":
		r = s.Or(args[0], args[1])
	case "bvxor":
		r = s.Xor(args[0], args[1])
	case "bvnot":
		r = s.Not(un())
	case "bvadd":
		r = s.Add(args[0], args[1])
	case "bvsub":
		r = s.Sub(args[0], args[1])
	case "bvmul":
		r = s.Mul(args[0], args[1])
	case "mulhi":
		r = s.MulHi(args[0], args[1])
	case "shl":
		r = s.Shl(un(), uint(t.Val))
	case "lshr":
		r = s.Shr(un(), uint(t.Val))
	case "ashr":
		r = s.Sar(un(), uint(t.Val))
	case "rol":
		r = s.Rol(un(), uint(t.Val))
	case "eq":
		r = s.Eq(args[0], args[1])
	case "ult":
		r = s.Ult(args[0], args[1])
	case "slt":
		r = s.Slt(args[0], args[1])
	case "ite":
		r = s.Ite(args[0], args[1], args[2])
	case "popcnt":
		r = s.Popcnt(un())
	default:
		return nil, fmt.Errorf("operator %s", t.Op)
	}
	memo[t] = r
	return r, nil
}
