package check

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The functional proof of a coefficient map (contract.Lanes), for a
// routine whose control flow and addresses do not depend on its inputs
// (established by the taint run before this is called):
//
//  1. Independence, by taint: 16 runs, each marking the words at one set
//     of positions (those with bit b of the index set, or clear) with
//     one taint and everything else (other positions, registers, frame,
//     output buffers) with the other. Output word j of a marked position
//     must carry none of the second taint, and of an unmarked position
//     none of the first. Any two positions j ≠ k differ in some bit, so
//     some run marks k and not j: output word j depends on input word j
//     and on nothing else (not on other positions, nor on the initial
//     registers or memory).
//  2. One symbolic run with every input word a variable gives each output
//     word as a term. A term may name only input variables (no havoc);
//     renaming position j's variables to x0, x1, … and every other
//     position's to z leaves a few distinct terms (one per lane shape).
//  3. Each distinct term is evaluated on every point of the domain, with
//     z = 0 (by 1 its value does not depend on z), and compared with the
//     contract's Map: exhaustion, a batch of domain points at a time.

// laneWords is the number of words of a Lanes buffer.
const laneWords = 256

func proveLanes(f *x86.File, r *x86.Routine, c *contract.Contract, maxSteps int) (string, error) {
	ln := c.Lanes
	if len(ln.In) == 0 || len(ln.In) != len(ln.Domain) || len(ln.Out) == 0 || ln.Map == nil {
		return "", fmt.Errorf("malformed Lanes")
	}
	for _, name := range append(append([]string{}, ln.In...), ln.Out...) {
		if !hasBuffer(c, name, 4*laneWords) {
			return "", fmt.Errorf("the contract's Lanes name %q, not a buffer of %d bytes", name, 4*laneWords)
		}
	}
	if ln.Count != "" && !hasBuffer(c, ln.Count, 4) {
		return "", fmt.Errorf("the contract's Count names %q, not a buffer of 4 bytes", ln.Count)
	}
	if err := laneIndependence(f, r, c, maxSteps); err != nil {
		return "", err
	}
	forms, m, s, err := laneTerms(f, r, c, maxSteps)
	if err != nil {
		return "", err
	}
	points := uint64(1)
	for _, d := range ln.Domain {
		points *= uint64(d)
	}
	count := ""
	if ln.Count != "" {
		d, err := proveCount(m, s, ln)
		if err != nil {
			return "", err
		}
		count = "; " + d
	}
	if ln.Split != nil {
		d, err := splitExhaust(forms, ln)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("proven for every input: 16 taint runs show output word i depends only on input words i; "+
			"one symbolic run gives %d distinct per-coefficient terms over %d outputs; %s%s", len(forms), len(ln.Out), d, count), nil
	}
	if err := exhaust(forms, ln); err != nil {
		return "", err
	}
	return fmt.Sprintf("proven for every input: 16 taint runs show output word i depends only on input word i; "+
		"one symbolic run gives %d distinct per-coefficient terms over %d outputs, each equal to Spec on all %d points of the domain (exhaustion)%s",
		len(forms), len(ln.Out), points, count), nil
}

func hasBuffer(c *contract.Contract, name string, size int) bool {
	for _, a := range c.Args {
		if a.Indirect == 0 && a.Name == name && a.Bytes == size {
			return true
		}
	}
	return false
}

// laneIndependence runs step 1.
func laneIndependence(f *x86.File, r *x86.Routine, c *contract.Contract, maxSteps int) error {
	// A memory byte's taint is 8 bits wide, a register's 64.
	const byteTaint, regTaint = 0xff, ^uint64(0)
	isIn := map[string]bool{}
	for _, n := range c.Lanes.In {
		isIn[n] = true
	}
	for b := 0; b < 8; b++ {
		for _, comp := range []bool{false, true} {
			chosen := func(j int) bool { return (j>>b&1 == 1) != comp }
			rng := rand.New(rand.NewPCG(uint64(b), 7))
			mk := func(v uint64, _, _ bool) x86.TV { return x86.TV{V: v} }
			m, _ := setup[x86.TV](x86.Taint{}, mk, f, r, c, c.Gen(rng), rng)
			// S: everything but the marked positions; I: the marked ones.
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
				case reg.Kind == x86.Buffer && isIn[reg.Name]:
					for i := range reg.Bytes {
						if chosen(i / 4) {
							reg.Bytes[i].I = byteTaint
						} else {
							reg.Bytes[i].S = byteTaint
						}
					}
				case reg.Kind == x86.Buffer, reg.Kind == x86.Frame, reg.Kind == x86.Results:
					for i := range reg.Bytes {
						reg.Bytes[i].S = byteTaint
					}
				}
			}
			if err := m.Run(maxSteps); err != nil {
				return fmt.Errorf("independence run (bit %d): %v", b, err)
			}
			for _, name := range c.Lanes.Out {
				reg := m.Region(name)
				for i, v := range reg.Bytes {
					j := i / 4
					if chosen(j) && v.S&0xff != 0 {
						return fmt.Errorf("%s word %d depends on something other than input word %d", name, j, j)
					}
					if !chosen(j) && v.I&0xff != 0 {
						return fmt.Errorf("%s word %d depends on the input words of other positions", name, j)
					}
				}
			}
		}
	}
	return nil
}

// laneForm is one distinct per-coefficient term of output out.
type laneForm struct {
	out   int
	key   string
	nodes []evalNode
	root  int
	where int // a position that has it, for messages
}

// laneTerms runs step 2.
func laneTerms(f *x86.File, r *x86.Routine, c *contract.Contract, maxSteps int) ([]*laneForm, *x86.Machine[*x86.Term], *x86.Sym, error) {
	s := x86.NewSym()
	mk := func(v uint64, _, _ bool) *x86.Term { return s.Const(v) }
	rng := rand.New(rand.NewPCG(3, 4))
	m, _ := setup[*x86.Term](s, mk, f, r, c, c.Gen(rng), rng)
	for k, name := range c.Lanes.In {
		reg := m.Region(name)
		for j := 0; j < laneWords; j++ {
			v := s.Var(fmt.Sprintf("in%d_%d", k, j))
			bs := make([]*x86.Term, 4)
			s.Bytes(v, bs)
			copy(reg.Bytes[4*j:], bs)
		}
	}
	if err := m.Run(maxSteps); err != nil {
		return nil, nil, nil, fmt.Errorf("symbolic run: %v", err)
	}
	var forms []*laneForm
	seen := map[string]bool{}
	for o, name := range c.Lanes.Out {
		reg := m.Region(name)
		for j := 0; j < laneWords; j++ {
			t := s.FromBytes(reg.Bytes[4*j : 4*j+4])
			fm, err := canonical(t, j, len(c.Lanes.In))
			if err != nil {
				return nil, nil, nil, fmt.Errorf("%s word %d: %v", name, j, err)
			}
			fm.out, fm.where = o, j
			if k := strconv.Itoa(o) + fm.key; !seen[k] {
				seen[k] = true
				forms = append(forms, fm)
			}
			if len(forms) > 64 {
				return nil, nil, nil, fmt.Errorf("more than 64 distinct per-coefficient terms")
			}
		}
	}
	return forms, m, s, nil
}

// evalNode is a term node in post order; args index earlier nodes. Var
// nodes hold the input index in val, or −1 for z.
type evalNode struct {
	op      string
	val     uint64
	a, b, c int
}

// canonical compiles t for position j: in<k>_<j> becomes input k, any
// other in<k>_<i> becomes z; other variables are refused.
func canonical(t *x86.Term, j, nIn int) (*laneForm, error) {
	return compileForm(t, func(name string) (uint64, error) {
		var k, pos int
		if _, err := fmt.Sscanf(name, "in%d_%d", &k, &pos); err != nil || k < 0 || k >= nIn ||
			name != fmt.Sprintf("in%d_%d", k, pos) {
			return 0, fmt.Errorf("term names %q, not an input word", name)
		}
		if pos != j {
			return ^uint64(0), nil
		}
		return uint64(k), nil
	})
}

// compileForm compiles t into nodes, each shared subterm once, and keys
// the form by its nodes so that positions computing alike share it.
// input classifies a variable by name: the input it is, ^0 for z (a word
// of another position), or an error for a variable the form may not read.
func compileForm(t *x86.Term, input func(name string) (uint64, error)) (*laneForm, error) {
	idx := map[*x86.Term]int{}
	fm := &laneForm{}
	var sb strings.Builder
	var walk func(t *x86.Term) (int, error)
	walk = func(t *x86.Term) (int, error) {
		if i, ok := idx[t]; ok {
			return i, nil
		}
		n := evalNode{op: t.Op, val: t.Val, a: -1, b: -1, c: -1}
		if t.Op == "var" {
			v, err := input(t.Name)
			if err != nil {
				return 0, err
			}
			n.val = v
		}
		args := []*int{&n.a, &n.b, &n.c}
		if len(t.Args) > 3 {
			return 0, fmt.Errorf("operator %s with %d arguments", t.Op, len(t.Args))
		}
		for i, a := range t.Args {
			ai, err := walk(a)
			if err != nil {
				return 0, err
			}
			*args[i] = ai
		}
		fm.nodes = append(fm.nodes, n)
		i := len(fm.nodes) - 1
		idx[t] = i
		fmt.Fprintf(&sb, "%s/%d/%d/%d/%d;", n.op, n.val, n.a, n.b, n.c)
		return i, nil
	}
	root, err := walk(t)
	if err != nil {
		return nil, err
	}
	fm.root, fm.key = root, sb.String()
	return fm, nil
}

// exhaust evaluates every form on every point of the domain, a batch of
// points at a time, and compares the low 32 bits with Map.
func exhaust(forms []*laneForm, ln *contract.Lanes) error {
	const w = 256
	nIn := len(ln.Domain)
	var want [w][]uint32
	var batch [w][]uint32
	var in [][w]uint64 = make([][w]uint64, nIn)
	for i := range batch {
		batch[i] = make([]uint32, nIn)
	}
	progs := make([]*laneProg, len(forms))
	for i, fm := range forms {
		p, err := compile(fm)
		if err != nil {
			return err
		}
		progs[i] = p
	}
	point := make([]uint32, nIn)
	n := 0
	flush := func() error {
		for l := 0; l < n; l++ {
			want[l] = ln.Map(batch[l])
			for k := range in {
				in[k][l] = uint64(batch[l][k])
			}
		}
		for i, p := range progs {
			got := p.run(in, n, nil)
			fm := forms[i]
			for l := 0; l < n; l++ {
				if uint32(got[l]) != want[l][fm.out] {
					return fmt.Errorf("%s word %d at input %v: term gives %d, Spec %d", ln.Out[fm.out], fm.where, batch[l], uint32(got[l]), want[l][fm.out])
				}
				if ln.Count != "" && want[l][0] > 1 {
					return fmt.Errorf("counted output %d at input %v is not 0 or 1", want[l][0], batch[l])
				}
			}
		}
		n = 0
		return nil
	}
	for {
		copy(batch[n], point)
		n++
		if n == w {
			if err := flush(); err != nil {
				return err
			}
		}
		// Next point (the last input varies fastest).
		k := nIn - 1
		for ; k >= 0; k-- {
			point[k]++
			if point[k] < ln.Domain[k] {
				break
			}
			point[k] = 0
		}
		if k < 0 {
			break
		}
	}
	return flush()
}

// Operators of a compiled term.
const (
	pConst = iota
	pIn
	pZero
	pAnd
	pOr
	pXor
	pNot
	pAdd
	pSub
	pMul
	pMulHi
	pShl
	pShr
	pSar
	pRol
	pEq
	pUlt
	pSlt
	pIte
	pPopcnt
)

var progOps = map[string]int{
	"bvand": pAnd, "bvor": pOr, "bvxor": pXor, "bvnot": pNot, "bvadd": pAdd, "bvsub": pSub,
	"bvmul": pMul, "mulhi": pMulHi, "shl": pShl, "lshr": pShr, "ashr": pSar, "rol": pRol,
	"eq": pEq, "ult": pUlt, "slt": pSlt, "ite": pIte, "popcnt": pPopcnt,
}

// laneProg is a form compiled for evaluation on a batch of points: one
// row of values per node.
type laneProg struct {
	ops  []int
	val  []uint64
	args [][3]int
	rows [][256]uint64
	root int
	only []bool // when set, the nodes run evaluates
	// fixed: the node reads no input; done: its row is final.
	fixed, done []bool
}

func compile(fm *laneForm) (*laneProg, error) {
	p := &laneProg{root: fm.root, rows: make([][256]uint64, len(fm.nodes))}
	for _, nd := range fm.nodes {
		op, ok := progOps[nd.op]
		switch {
		case nd.op == "const":
			op = pConst
		case nd.op == "var" && nd.val == ^uint64(0):
			op = pZero
		case nd.op == "var":
			op = pIn
		case !ok:
			return nil, fmt.Errorf("operator %s has no evaluation", nd.op)
		}
		p.ops = append(p.ops, op)
		p.val = append(p.val, nd.val)
		p.args = append(p.args, [3]int{nd.a, nd.b, nd.c})
		// A node that reads no input word has one value: it is
		// evaluated on the first full batch and kept.
		fixed := op != pIn
		for _, a := range []int{nd.a, nd.b, nd.c} {
			if a >= 0 && !p.fixed[a] {
				fixed = false
			}
		}
		p.fixed = append(p.fixed, fixed)
	}
	p.done = make([]bool, len(p.ops))
	return p, nil
}

// run evaluates the first n points of in (in[k] is input k) and returns
// the root's row; a node in over takes its row from there instead.
func (p *laneProg) run(in [][256]uint64, n int, over map[int]*[256]uint64) *[256]uint64 {
	for i, op := range p.ops {
		r := &p.rows[i]
		if o, ok := over[i]; ok {
			*r = *o
			continue
		}
		if p.done[i] || p.only != nil && !p.only[i] {
			continue
		}
		p.done[i] = p.fixed[i] && n == len(r)
		v := p.val[i]
		ar := p.args[i]
		var a, b, c *[256]uint64
		if ar[0] >= 0 {
			a = &p.rows[ar[0]]
		}
		if ar[1] >= 0 {
			b = &p.rows[ar[1]]
		}
		if ar[2] >= 0 {
			c = &p.rows[ar[2]]
		}
		switch op {
		case pConst:
			for l := 0; l < n; l++ {
				r[l] = v
			}
		case pIn:
			*r = in[v]
		case pZero:
			*r = [256]uint64{}
		case pAnd:
			for l := 0; l < n; l++ {
				r[l] = a[l] & b[l]
			}
		case pOr:
			for l := 0; l < n; l++ {
				r[l] = a[l] | b[l]
			}
		case pXor:
			for l := 0; l < n; l++ {
				r[l] = a[l] ^ b[l]
			}
		case pNot:
			for l := 0; l < n; l++ {
				r[l] = ^a[l]
			}
		case pAdd:
			for l := 0; l < n; l++ {
				r[l] = a[l] + b[l]
			}
		case pSub:
			for l := 0; l < n; l++ {
				r[l] = a[l] - b[l]
			}
		case pMul:
			for l := 0; l < n; l++ {
				r[l] = a[l] * b[l]
			}
		case pMulHi:
			for l := 0; l < n; l++ {
				r[l], _ = bits.Mul64(a[l], b[l])
			}
		case pShl:
			for l := 0; l < n; l++ {
				r[l] = a[l] << v
			}
		case pShr:
			for l := 0; l < n; l++ {
				r[l] = a[l] >> v
			}
		case pSar:
			for l := 0; l < n; l++ {
				r[l] = uint64(int64(a[l]) >> v)
			}
		case pRol:
			for l := 0; l < n; l++ {
				r[l] = bits.RotateLeft64(a[l], int(v))
			}
		case pEq:
			for l := 0; l < n; l++ {
				r[l] = b2u(a[l] == b[l])
			}
		case pUlt:
			for l := 0; l < n; l++ {
				r[l] = b2u(a[l] < b[l])
			}
		case pSlt:
			for l := 0; l < n; l++ {
				r[l] = b2u(int64(a[l]) < int64(b[l]))
			}
		case pIte: // ite(cond, then, else) as Spec/x86's Sym builds it
			for l := 0; l < n; l++ {
				if a[l] != 0 {
					r[l] = b[l]
				} else {
					r[l] = c[l]
				}
			}
		case pPopcnt:
			for l := 0; l < n; l++ {
				r[l] = uint64(bits.OnesCount64(a[l]))
			}
		}
	}
	return &p.rows[p.root]
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
