package check

import (
	"fmt"
	"math/bits"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The functional proof of a two-input coefficient map over [0, q)²
// (contract.Split), where the 2⁴⁶ pairs are too many to exhaust, and of a
// count of its ones (Lanes.Count). Steps 1 and 2 of lanes.go come first
// (output word j depends only on input words j; one term per lane shape,
// other positions' words set to 0). Then, for each term, with x = input 0
// and y = input 1:
//
//  4. The cut. Exactly one node of the term reads both inputs while its
//     arguments do not: s = a + b, where a reads only x and b only y.
//     Exhaustion of [0, q) shows a = x and b = y, so s = x + y, in
//     [0, 2q − 2]. With s a leaf t, no other node may read x; the nodes
//     that read both y and t are the mixed ones, and their arguments
//     that read one of them are the frontier: F_y (reading y) and F_t.
//  5. Exhaustion of y over [0, q) gives the set R1 of pairs (the F_y
//     values, Split.Of(y)); of t over [0, 2q − 1), R2 of pairs (the F_t
//     values, Split.OfSum(t mod q)). Both must be small.
//  6. For every pair of R1 × R2 the mixed nodes, from those frontier
//     values, give the output Split.Join gives from the two Spec values.
//
// For every x, y in [0, q): the term is the mixed nodes' value on
// (F_y(y), F_t(x + y)); (F_y(y), Of(y)) is in R1 and
// (F_t(x + y), OfSum((x + y) mod q)) in R2, so by 6 the term equals
// Join(Of(y), OfSum((x + y) mod q)), which the contract states is Map.

// maybeBits gives, for each node, the bits that may be 1 for inputs in
// the domain and the other positions' words 0; a node with none is 0.
func maybeBits(nodes []evalNode, domain []uint32) []uint64 {
	nz := make([]uint64, len(nodes))
	const all = ^uint64(0)
	upTo := func(x uint64) uint64 { return 1<<bits.Len64(x) - 1 }
	for i, nd := range nodes {
		var a, b uint64
		if nd.a >= 0 {
			a = nz[nd.a]
		}
		if nd.b >= 0 {
			b = nz[nd.b]
		}
		h := all
		switch nd.op {
		case "const":
			h = nd.val
		case "var":
			h = 0
			if nd.val != ^uint64(0) {
				h = upTo(uint64(domain[nd.val]) - 1)
			}
		case "bvand":
			h = a & b
		case "bvor", "bvxor":
			h = a | b
		case "lshr":
			h = a >> nd.val
		case "shl":
			h = a << nd.val
		case "ashr":
			h = a >> nd.val
			if a>>63 != 0 {
				h |= all << (63 - nd.val)
			}
		case "rol":
			h = bits.RotateLeft64(a, int(nd.val))
		case "bvadd":
			switch {
			case a == 0:
				h = b
			case b == 0:
				h = a
			case bits.Len64(a|b) < 64:
				h = upTo(a|b)<<1 | 1
			}
		}
		nz[i] = h
	}
	return nz
}

// maxRelation bounds R1 and R2.
const maxRelation = 1 << 12

func splitExhaust(forms []*laneForm, ln *contract.Lanes) (string, error) {
	if len(ln.In) != 2 || ln.Domain[0] != fips204.Q || ln.Domain[1] != fips204.Q {
		return "", fmt.Errorf("a Split needs two inputs in [0, q)")
	}
	// Spec's two maps, once for all terms.
	var sp splitSpec
	for y := uint32(0); y < fips204.Q; y++ {
		sp.of = append(sp.of, ln.Split.Of(y))
		sp.ofSum = append(sp.ofSum, ln.Split.OfSum(y))
	}
	n1, n2 := 0, 0
	for _, fm := range forms {
		a, b, err := splitForm(fm, ln, &sp)
		if err != nil {
			return "", fmt.Errorf("%s word %d: %v", ln.Out[fm.out], fm.where, err)
		}
		n1, n2 = max(n1, a), max(n2, b)
	}
	return fmt.Sprintf("each term reads its two inputs x, y only through y and one sum x + y (identities checked on all of [0, q)); "+
		"exhaustion of y over [0, q) and of the sum over [0, 2q − 1) gives at most %d and %d frontier classes, "+
		"and every pair of classes gives Spec's result (Algorithm 39's split)", n1, n2), nil
}

// Dependence bits: input 0, input 1, the cut t.
const (
	depX = 1 << iota
	depY
	depT
)

// splitSpec holds Split.Of and Split.OfSum on [0, q).
type splitSpec struct{ of, ofSum []uint32 }

// cone marks the nodes the roots read, not looking below stop.
func cone(nodes []evalNode, roots []int, stop int) []bool {
	in := make([]bool, len(nodes))
	for _, r := range roots {
		in[r] = true
	}
	for i := len(nodes) - 1; i >= 0; i-- {
		if in[i] && i != stop {
			for _, a := range []int{nodes[i].a, nodes[i].b, nodes[i].c} {
				if a >= 0 {
					in[a] = true
				}
			}
		}
	}
	return in
}

// nodeArgs lists node i's arguments.
func nodeArgs(nodes []evalNode, i int) []int {
	var out []int
	for _, a := range []int{nodes[i].a, nodes[i].b, nodes[i].c} {
		if a >= 0 {
			out = append(out, a)
		}
	}
	return out
}

// depends gives each node's dependence bits: leaf(i), when its second
// result is true, settles node i; any other node reads what its
// arguments read.
func depends(nodes []evalNode, leaf func(i int) (uint8, bool)) []uint8 {
	dep := make([]uint8, len(nodes))
	for i := range nodes {
		if d, ok := leaf(i); ok {
			dep[i] = d
			continue
		}
		for _, a := range nodeArgs(nodes, i) {
			dep[i] |= dep[a]
		}
	}
	return dep
}

// inputLeaf is the leaf rule over inputs 0 and 1: a node whose maybe-bits
// nz are none reads nothing, input 0 reads depX, input 1 depY, and any
// other variable (a word of another position) nothing.
func inputLeaf(nodes []evalNode, nz []uint64) func(i int) (uint8, bool) {
	return func(i int) (uint8, bool) {
		switch {
		case nz[i] == 0:
			return 0, true
		case nodes[i].op != "var":
			return 0, false
		case nodes[i].val == 0:
			return depX, true
		case nodes[i].val == 1:
			return depY, true
		}
		return 0, true
	}
}

func splitForm(fm *laneForm, ln *contract.Lanes, sp *splitSpec) (int, int, error) {
	nodes := fm.nodes
	args := func(i int) []int { return nodeArgs(nodes, i) }
	// A node that is 0 on the whole domain reads nothing (the other
	// positions' words, which are 0, shifted or masked away).
	hi := maybeBits(nodes, ln.Domain)
	leaf := inputLeaf(nodes, hi)
	dep := depends(nodes, leaf)
	// 4. The one minimal node reading both inputs.
	s := -1
	for i := range nodes {
		if dep[i] != depX|depY {
			continue
		}
		minimal := true
		for _, a := range args(i) {
			if dep[a] == depX|depY {
				minimal = false
			}
		}
		if minimal {
			if s >= 0 {
				return 0, 0, fmt.Errorf("more than one node combines the two inputs")
			}
			s = i
		}
	}
	if s < 0 {
		return 0, 0, fmt.Errorf("no node combines the two inputs")
	}
	a, b := nodes[s].a, nodes[s].b
	if nodes[s].op != "bvadd" {
		return 0, 0, fmt.Errorf("the node combining the inputs is %s, not an addition", nodes[s].op)
	}
	if dep[a] == depY {
		a, b = b, a
	}
	if dep[a] != depX || dep[b] != depY {
		return 0, 0, fmt.Errorf("the addition's arguments do not read one input each")
	}
	p, err := compile(fm)
	if err != nil {
		return 0, 0, err
	}
	in := make([][256]uint64, 2)
	p.only = cone(nodes, []int{a, b}, -1)
	for x0 := uint32(0); x0 < fips204.Q; x0 += 256 {
		n := min(256, int(fips204.Q-x0))
		for l := 0; l < n; l++ {
			in[0][l], in[1][l] = uint64(x0)+uint64(l), uint64(x0)+uint64(l)
		}
		p.run(in, n, nil)
		for l := 0; l < n; l++ {
			if p.rows[a][l] != in[0][l] || p.rows[b][l] != in[1][l] {
				return 0, 0, fmt.Errorf("the addition's arguments are not the inputs themselves at %d", in[0][l])
			}
		}
	}
	// With s a leaf t: what the root reaches, and what each node reads.
	reach := make([]bool, len(nodes))
	reach[fm.root] = true
	for i := len(nodes) - 1; i >= 0; i-- {
		if reach[i] && i != s && hi[i] != 0 {
			for _, a := range args(i) {
				reach[a] = true
			}
		}
	}
	dep2 := depends(nodes, func(i int) (uint8, bool) {
		if i == s {
			return depT, true
		}
		return leaf(i)
	})
	for i, nd := range nodes {
		if reach[i] && dep2[i]&depX != 0 {
			return 0, 0, fmt.Errorf("input 0 is read outside the sum (node %d %s, sum %d)", i, nd.op, s)
		}
	}
	var fy, ft []int
	inF := map[int]bool{}
	addF := func(i int) {
		if inF[i] {
			return
		}
		inF[i] = true
		if dep2[i] == depY {
			fy = append(fy, i)
		} else {
			ft = append(ft, i)
		}
	}
	if dep2[fm.root] == depY|depT {
		for i := range nodes {
			if !reach[i] || dep2[i] != depY|depT {
				continue
			}
			for _, a := range args(i) {
				if dep2[a] == depY || dep2[a] == depT {
					addF(a)
				}
			}
		}
	} else if dep2[fm.root] != 0 {
		addF(fm.root)
	}
	if len(fy) > 8 || len(ft) > 8 {
		return 0, 0, fmt.Errorf("frontier of %d and %d nodes", len(fy), len(ft))
	}
	// 5. The two relations.
	p.only = nil
	rel := func(frontier []int, domain uint32, over int, spec func(v uint32) uint32) ([][9]uint64, error) {
		p, err := compile(fm)
		if err != nil {
			return nil, err
		}
		in := make([][256]uint64, 2)
		seen := map[[9]uint64]bool{}
		var list [][9]uint64
		var last [9]uint64
		// Only the frontier's cone is evaluated.
		p.only = cone(nodes, frontier, over)
		var row [256]uint64
		o := map[int]*[256]uint64{}
		if over >= 0 {
			o[over] = &row
		}
		for v0 := uint32(0); v0 < domain; v0 += 256 {
			n := min(256, int(domain-v0))
			for l := 0; l < n; l++ {
				in[0][l], in[1][l], row[l] = 0, uint64(v0)+uint64(l), uint64(v0)+uint64(l)
			}
			p.run(in, n, o)
			for l := 0; l < n; l++ {
				var k [9]uint64
				for i, f := range frontier {
					k[i] = p.rows[f][l]
				}
				k[8] = uint64(spec(v0 + uint32(l)))
				if (len(list) == 0 || k != last) && !seen[k] {
					if len(list) == maxRelation {
						return nil, fmt.Errorf("more than %d frontier classes", maxRelation)
					}
					seen[k] = true
					list = append(list, k)
				}
				last = k
			}
		}
		return list, nil
	}
	// The two exhaustions run side by side (two cores).
	var r1, r2 [][9]uint64
	var err1, err2 error
	done := make(chan bool)
	go func() {
		r1, err1 = rel(fy, fips204.Q, -1, func(y uint32) uint32 { return sp.of[y] })
		done <- true
	}()
	r2, err2 = rel(ft, 2*fips204.Q-1, s, func(t uint32) uint32 { return sp.ofSum[t%fips204.Q] })
	<-done
	if err1 != nil {
		return 0, 0, err1
	}
	if err2 != nil {
		return 0, 0, err2
	}
	// 6. Every pair of classes.
	rows := map[int]*[256]uint64{}
	for _, f := range append(append([]int{}, fy...), ft...) {
		rows[f] = new([256]uint64)
	}
	type pair struct{ u, w [9]uint64 }
	var batch []pair
	flush := func() error {
		for l, pr := range batch {
			for i, f := range fy {
				rows[f][l] = pr.u[i]
			}
			for i, f := range ft {
				rows[f][l] = pr.w[i]
			}
		}
		got := p.run(in, len(batch), rows)
		for l, pr := range batch {
			want := ln.Split.Join(uint32(pr.u[8]), uint32(pr.w[8]))
			if len(want) != len(ln.Out) {
				return fmt.Errorf("the Split's Join gives %d outputs, not %d", len(want), len(ln.Out))
			}
			if uint32(got[l]) != want[fm.out] {
				return fmt.Errorf("frontier %v, %v: term gives %d, Spec %d", pr.u[:len(fy)], pr.w[:len(ft)], uint32(got[l]), want[fm.out])
			}
			if ln.Count != "" && want[0] > 1 {
				return fmt.Errorf("counted output %d is not 0 or 1", want[0])
			}
		}
		batch = batch[:0]
		return nil
	}
	for _, u := range r1 {
		for _, w := range r2 {
			batch = append(batch, pair{u, w})
			if len(batch) == 256 {
				if err := flush(); err != nil {
					return 0, 0, err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return 0, 0, err
	}
	return len(r1), len(r2), nil
}

// The count (Lanes.Count): the counted output's words are proven 0 or 1
// (above, or by plain exhaustion). In the symbolic run each of its bytes
// is byte k of a word term W; the count's term is read as a sum over
// such W with linear forms: W is Σ_d 2^(32d)·w_d over its 32-bit parts,
// a part stored as output word j being that word's value e_j ∈ {0, 1},
// any other part an unknown in [0, 2³²). The count must come out as
// e_0 + … + e_255 exactly (every rule below is an identity on integers
// or mod 2⁶⁴; an operator without one fails).

// linForm is Σ c[a]·a + k mod 2⁶⁴ over atoms a ≥ 0 (0..255: e_j in
// [0, 1]; others: unknowns in [0, 2³² − 1]).
type linForm struct {
	c map[int]uint64
	k uint64
}

func atomMax(a int) uint64 {
	if a < laneWords {
		return 1
	}
	return 1<<32 - 1
}

// max returns the form's largest value as an integer, and false if it
// may reach 2⁶⁴ (the form may then wrap).
func (f linForm) max() (uint64, bool) {
	m := f.k
	for a, c := range f.c {
		hi, lo := bits.Mul64(c, atomMax(a))
		if hi != 0 {
			return 0, false
		}
		var carry uint64
		m, carry = bits.Add64(m, lo, 0)
		if carry != 0 {
			return 0, false
		}
	}
	return m, true
}

func (f linForm) scale(s uint64) linForm {
	g := linForm{c: map[int]uint64{}, k: f.k * s}
	for a, c := range f.c {
		if c*s != 0 {
			g.c[a] = c * s
		}
	}
	return g
}

func addForms(f, g linForm) linForm {
	h := linForm{c: map[int]uint64{}, k: f.k + g.k}
	for a, c := range f.c {
		h.c[a] = c
	}
	for a, c := range g.c {
		h.c[a] += c
		if h.c[a] == 0 {
			delete(h.c, a)
		}
	}
	return h
}

// lowBits returns f mod 2ⁿ when that is exactly the form with every
// coefficient reduced mod 2ⁿ (its largest value below 2ⁿ).
func (f linForm) lowBits(n uint) (linForm, bool) {
	mask := uint64(1)<<n - 1
	g := linForm{c: map[int]uint64{}, k: f.k & mask}
	for a, c := range f.c {
		if c&mask != 0 {
			g.c[a] = c & mask
		}
	}
	if m, ok := g.max(); !ok || m > mask {
		return g, false
	}
	return g, true
}

// shiftDown returns ⌊f / 2ⁿ⌋ when f is exact and splits as lo + 2ⁿ·hi
// with lo's largest value below 2ⁿ.
func (f linForm) shiftDown(n uint) (linForm, bool) {
	if _, ok := f.max(); !ok {
		return f, false
	}
	lo, ok := f.lowBits(n)
	if !ok {
		return f, false
	}
	hi := linForm{c: map[int]uint64{}, k: f.k >> n}
	for a, c := range f.c {
		if c>>n != 0 {
			hi.c[a] = c >> n
		}
	}
	_ = lo
	return hi, true
}

func (f linForm) isZero() bool { return f.k == 0 && len(f.c) == 0 }

// countWords reads the counted output's bytes as parts of word terms and
// returns each word term's linear form.
func countWords(reg *x86.Region[*x86.Term]) (map[*x86.Term]linForm, error) {
	type part struct {
		word  int // output word, or −1
		bytes int // bytes seen
	}
	parts := map[*x86.Term]*[8]part{}
	var order []*x86.Term
	for i, bt := range reg.Bytes {
		if bt.Op != "bvand" || len(bt.Args) != 2 || bt.Args[1].Op != "const" || bt.Args[1].Val != 0xff {
			return nil, fmt.Errorf("byte %d of the counted output is not a byte of a word", i)
		}
		w, sh := bt.Args[0], uint64(0)
		if w.Op == "lshr" && w.Val%8 == 0 {
			w, sh = w.Args[0], w.Val
		}
		// A byte of the low half (W & (2³² − 1)) is that byte of W.
		if w.Op == "bvand" && w.Args[1].Op == "const" && w.Args[1].Val == 1<<32-1 && sh < 32 {
			w = w.Args[0]
		}
		ps, ok := parts[w]
		if !ok {
			ps = &[8]part{}
			for d := range ps {
				ps[d].word = -1
			}
			parts[w] = ps
			order = append(order, w)
		}
		d, k := sh/32, int(sh%32)/8
		if k != i%4 || (ps[d].word >= 0 && ps[d].word != i/4) || ps[d].bytes&(1<<k) != 0 {
			return nil, fmt.Errorf("byte %d of the counted output is byte %d of a word, not of a whole stored word", i, sh/8)
		}
		ps[d].word = i / 4
		ps[d].bytes |= 1 << k
	}
	out := map[*x86.Term]linForm{}
	unknown := laneWords
	for _, w := range order {
		f := linForm{c: map[int]uint64{}}
		for d := 0; d < 2; d++ {
			p := parts[w][d]
			a := p.word
			switch {
			case p.word >= 0 && p.bytes != 0xf:
				return nil, fmt.Errorf("output word %d is stored in part", p.word)
			case p.word < 0:
				a = unknown
				unknown++
			}
			f.c[a] = uint64(1) << (32 * d)
		}
		out[w] = f
	}
	return out, nil
}

// linearize reads t as a linear form over the counted words.
func linearize(t *x86.Term, known map[*x86.Term]linForm, memo map[*x86.Term]linForm) (linForm, error) {
	if f, ok := known[t]; ok {
		return f, nil
	}
	if f, ok := memo[t]; ok {
		return f, nil
	}
	arg := func(i int) (linForm, error) { return linearize(t.Args[i], known, memo) }
	var f linForm
	fail := func(why string) (linForm, error) {
		return linForm{}, fmt.Errorf("%s %s", t.Op, why)
	}
	switch t.Op {
	case "const":
		f = linForm{c: map[int]uint64{}, k: t.Val}
	case "bvadd":
		a, err := arg(0)
		if err != nil {
			return a, err
		}
		b, err := arg(1)
		if err != nil {
			return b, err
		}
		f = addForms(a, b)
	case "shl":
		a, err := arg(0)
		if err != nil {
			return a, err
		}
		f = a.scale(uint64(1) << t.Val)
	case "lshr":
		a, err := arg(0)
		if err != nil {
			return a, err
		}
		g, ok := a.shiftDown(uint(t.Val))
		if !ok {
			return fail("of a form that does not split at the shift")
		}
		f = g
	case "bvand":
		a, err := arg(0)
		if err != nil {
			return a, err
		}
		m := t.Args[1]
		if m.Op != "const" || m.Val&(m.Val+1) != 0 {
			return fail("with something other than a low mask")
		}
		n := uint(bits.OnesCount64(m.Val))
		if n == 64 {
			f = a
			break
		}
		g, ok := a.lowBits(n)
		if !ok {
			return fail("of a form that may reach the mask")
		}
		f = g
	case "bvor":
		a, err := arg(0)
		if err != nil {
			return a, err
		}
		b, err := arg(1)
		if err != nil {
			return b, err
		}
		// Disjoint bits: a below 2ⁿ, b a multiple of 2ⁿ.
		switch {
		case a.isZero():
			f = b
		case b.isZero():
			f = a
		default:
			ok := false
			for n := uint(1); n < 64 && !ok; n++ {
				ok = below(a, n) && multipleOf(b, n) || below(b, n) && multipleOf(a, n)
			}
			if !ok {
				return fail("of forms whose bits may overlap")
			}
			f = addForms(a, b)
		}
	default:
		return fail("has no linear reading")
	}
	memo[t] = f
	return f, nil
}

func below(f linForm, n uint) bool {
	m, ok := f.max()
	return ok && m < uint64(1)<<n
}

func multipleOf(f linForm, n uint) bool {
	mask := uint64(1)<<n - 1
	if f.k&mask != 0 {
		return false
	}
	for _, c := range f.c {
		if c&mask != 0 {
			return false
		}
	}
	return true
}

// proveCount shows the count output equals the number of ones among the
// counted words, from one symbolic run.
func proveCount(m *x86.Machine[*x86.Term], s *x86.Sym, ln *contract.Lanes) (string, error) {
	known, err := countWords(m.Region(ln.Out[0]))
	if err != nil {
		return "", err
	}
	reg := m.Region(ln.Count)
	if reg == nil || len(reg.Bytes) != 4 {
		return "", fmt.Errorf("no 4-byte output %q", ln.Count)
	}
	f, err := linearize(s.FromBytes(reg.Bytes), known, map[*x86.Term]linForm{})
	if err != nil {
		return "", fmt.Errorf("%s: %v", ln.Count, err)
	}
	if mx, ok := f.max(); !ok || mx >= 1<<32 || f.k != 0 || len(f.c) != laneWords {
		return "", fmt.Errorf("%s is not the sum of the %d words of %s", ln.Count, laneWords, ln.Out[0])
	}
	for a, c := range f.c {
		if a >= laneWords || c != 1 {
			return "", fmt.Errorf("%s is not the sum of the %d words of %s", ln.Count, laneWords, ln.Out[0])
		}
	}
	return fmt.Sprintf("%s read as a linear form over the stored words of %s: exactly their sum", ln.Count, ln.Out[0]), nil
}
