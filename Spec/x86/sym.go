package x86

import (
	"fmt"
	"math/bits"
	"strings"
)

// Term is a 64-bit bit-vector term. Leaves are constants (Op "const") and
// variables (Op "var"); inner nodes are SMT-LIB bit-vector operators.
type Term struct {
	Op   string
	Args []*Term
	Val  uint64 // const value; shift/rotate amount
	Name string // variable name
	id   int
}

// Sym is the symbolic domain: it builds terms, folding constants and a few
// identities (x^0, x&0, x&~0, byte split/join of one word) so that straight
// line code yields small terms.
type Sym struct {
	n     *int
	cache map[termKey]*Term
	small *[256]*Term // the constants below 256
}

// termKey names a term: its operator, value and at most three arguments
// (terms are unique, so their pointers name them).
type termKey struct {
	op      string
	val     uint64
	a, b, c *Term
}

// NewSym returns a symbolic domain.
func NewSym() *Sym {
	return &Sym{n: new(int), cache: map[termKey]*Term{}, small: new([256]*Term)}
}

// Var returns a fresh 64-bit variable.
func (s *Sym) Var(name string) *Term { return s.mk(&Term{Op: "var", Name: name}) }

func (s *Sym) mk(t *Term) *Term {
	*s.n++
	t.id = *s.n
	return t
}

// op returns the term op(val; a, b, c), one per operator, value and
// arguments; b and c are nil for fewer arguments.
func (s *Sym) op(op string, val uint64, a, b, c *Term) *Term {
	k := termKey{op: op, val: val, a: a, b: b, c: c}
	if t, ok := s.cache[k]; ok {
		return t
	}
	args := []*Term{a, b, c}
	for args[len(args)-1] == nil {
		args = args[:len(args)-1]
	}
	t := s.mk(&Term{Op: op, Val: val, Args: args})
	s.cache[k] = t
	return t
}

func isC(t *Term) bool { return t.Op == "const" }

func (s *Sym) Const(x uint64) *Term {
	if x < 256 {
		if t := s.small[x]; t != nil {
			return t
		}
		t := s.mk(&Term{Op: "const", Val: x})
		s.small[x] = t
		return t
	}
	k := termKey{op: "const", val: x}
	if t, ok := s.cache[k]; ok {
		return t
	}
	t := s.mk(&Term{Op: "const", Val: x})
	s.cache[k] = t
	return t
}

func (s *Sym) bin(op string, a, b *Term, f func(x, y uint64) uint64) *Term {
	if isC(a) && isC(b) {
		return s.Const(f(a.Val, b.Val))
	}
	return s.op(op, 0, a, b, nil)
}

func (s *Sym) And(a, b *Term) *Term {
	switch {
	case isC(a) && isC(b):
		return s.Const(a.Val & b.Val)
	case isC(a) && a.Val == 0, isC(b) && b.Val == ^uint64(0):
		return a
	case isC(b) && b.Val == 0, isC(a) && a.Val == ^uint64(0):
		return b
	}
	return s.op("bvand", 0, a, b, nil)
}
func (s *Sym) Or(a, b *Term) *Term {
	if isC(a) && a.Val == 0 {
		return b
	}
	if isC(b) && b.Val == 0 {
		return a
	}
	return s.bin("bvor", a, b, func(x, y uint64) uint64 { return x | y })
}
func (s *Sym) Xor(a, b *Term) *Term {
	if isC(a) && a.Val == 0 {
		return b
	}
	if isC(b) && b.Val == 0 {
		return a
	}
	return s.bin("bvxor", a, b, func(x, y uint64) uint64 { return x ^ y })
}
func (s *Sym) Not(a *Term) *Term {
	if isC(a) {
		return s.Const(^a.Val)
	}
	if a.Op == "bvnot" {
		return a.Args[0]
	}
	return s.op("bvnot", 0, a, nil, nil)
}
func (s *Sym) Add(a, b *Term) *Term {
	if isC(b) && b.Val == 0 {
		return a
	}
	if isC(a) && a.Val == 0 {
		return b
	}
	return s.bin("bvadd", a, b, func(x, y uint64) uint64 { return x + y })
}
func (s *Sym) Sub(a, b *Term) *Term {
	if isC(b) && b.Val == 0 {
		return a
	}
	return s.bin("bvsub", a, b, func(x, y uint64) uint64 { return x - y })
}
func (s *Sym) Mul(a, b *Term) *Term {
	return s.bin("bvmul", a, b, func(x, y uint64) uint64 { return x * y })
}
func (s *Sym) MulHi(a, b *Term) *Term {
	return s.bin("mulhi", a, b, func(x, y uint64) uint64 { h, _ := bits.Mul64(x, y); return h })
}
func (s *Sym) Shl(a *Term, n uint) *Term {
	if n == 0 {
		return a
	}
	if isC(a) {
		return s.Const(a.Val << n)
	}
	return s.op("shl", uint64(n), a, nil, nil)
}
func (s *Sym) Shr(a *Term, n uint) *Term {
	if n == 0 {
		return a
	}
	if isC(a) {
		return s.Const(a.Val >> n)
	}
	return s.op("lshr", uint64(n), a, nil, nil)
}
func (s *Sym) Sar(a *Term, n uint) *Term {
	if n == 0 {
		return a
	}
	if isC(a) {
		return s.Const(uint64(int64(a.Val) >> n))
	}
	return s.op("ashr", uint64(n), a, nil, nil)
}
func (s *Sym) Rol(a *Term, n uint) *Term {
	n &= 63
	if n == 0 {
		return a
	}
	if isC(a) {
		return s.Const(bits.RotateLeft64(a.Val, int(n)))
	}
	return s.op("rol", uint64(n), a, nil, nil)
}
func (s *Sym) Eq(a, b *Term) *Term {
	return s.bin("eq", a, b, func(x, y uint64) uint64 { return b2u(x == y) })
}
func (s *Sym) Ult(a, b *Term) *Term {
	return s.bin("ult", a, b, func(x, y uint64) uint64 { return b2u(x < y) })
}
func (s *Sym) Slt(a, b *Term) *Term {
	return s.bin("slt", a, b, func(x, y uint64) uint64 { return b2u(int64(x) < int64(y)) })
}
func (s *Sym) Ite(c, a, b *Term) *Term {
	if isC(c) {
		if c.Val != 0 {
			return a
		}
		return b
	}
	if a == b {
		return a
	}
	return s.op("ite", 0, c, a, b)
}
func (s *Sym) Popcnt(a *Term) *Term {
	if isC(a) {
		return s.Const(uint64(bits.OnesCount64(a.Val)))
	}
	return s.op("popcnt", 0, a, nil, nil)
}
func (s *Sym) Dep(a, _ *Term) *Term { return a }
func (s *Sym) Havoc(...*Term) *Term {
	return s.Var(fmt.Sprintf("havoc%d", *s.n+1))
}
func (s *Sym) Concrete(a *Term) (uint64, bool) {
	if isC(a) {
		return a.Val, true
	}
	return 0, false
}
func (s *Sym) Range(a *Term) (uint64, uint64) {
	if isC(a) {
		return a.Val, a.Val
	}
	return 0, ^uint64(0)
}
func (s *Sym) Bytes(a *Term, out []*Term) {
	for i := range out {
		out[i] = s.And(s.Shr(a, uint(8*i)), s.Const(0xff))
	}
}

// FromBytes joins bytes; bytes that are exactly the split of one word
// give back that word.
func (s *Sym) FromBytes(b []*Term) *Term {
	if src := s.splitOf(b); src != nil {
		if len(b) == 8 {
			return src
		}
		return s.And(src, s.Const(uint64(1)<<(8*len(b))-1))
	}
	r := s.Const(0)
	for i, x := range b {
		r = s.Or(r, s.Shl(x, uint(8*i)))
	}
	return r
}

func (s *Sym) splitOf(b []*Term) *Term {
	var src *Term
	for i, x := range b {
		// byte i = (src >> 8i) & 0xff
		if x.Op != "bvand" || len(x.Args) != 2 || !isC(x.Args[1]) || x.Args[1].Val != 0xff {
			return nil
		}
		y := x.Args[0]
		if i > 0 {
			if y.Op != "lshr" || y.Val != uint64(8*i) {
				return nil
			}
			y = y.Args[0]
		}
		if src == nil {
			src = y
		} else if src != y {
			return nil
		}
	}
	return src
}

// SMT returns an SMT-LIB 2 expression for t (sharing repeated subterms
// through the definitions appended to defs, named t<id>).
func SMT(t *Term, defs *[]string, seen map[int]bool) string {
	switch t.Op {
	case "const":
		return fmt.Sprintf("#x%016x", t.Val)
	case "var":
		return t.Name
	}
	name := fmt.Sprintf("t%d", t.id)
	if seen[t.id] {
		return name
	}
	args := make([]string, len(t.Args))
	for i, a := range t.Args {
		args[i] = SMT(a, defs, seen)
	}
	bool2bv := func(e string) string { return fmt.Sprintf("(ite %s #x%016x #x%016x)", e, 1, 0) }
	var e string
	switch t.Op {
	case "bvand", "bvor", "bvxor", "bvadd", "bvsub", "bvmul":
		e = fmt.Sprintf("(%s %s %s)", t.Op, args[0], args[1])
	case "bvnot":
		e = fmt.Sprintf("(bvnot %s)", args[0])
	case "mulhi":
		e = fmt.Sprintf("((_ extract 127 64) (bvmul ((_ zero_extend 64) %s) ((_ zero_extend 64) %s)))", args[0], args[1])
	case "shl":
		e = fmt.Sprintf("(bvshl %s #x%016x)", args[0], t.Val)
	case "lshr":
		e = fmt.Sprintf("(bvlshr %s #x%016x)", args[0], t.Val)
	case "ashr":
		e = fmt.Sprintf("(bvashr %s #x%016x)", args[0], t.Val)
	case "rol":
		e = fmt.Sprintf("((_ rotate_left %d) %s)", t.Val, args[0])
	case "eq":
		e = bool2bv(fmt.Sprintf("(= %s %s)", args[0], args[1]))
	case "ult":
		e = bool2bv(fmt.Sprintf("(bvult %s %s)", args[0], args[1]))
	case "slt":
		e = bool2bv(fmt.Sprintf("(bvslt %s %s)", args[0], args[1]))
	case "ite":
		e = fmt.Sprintf("(ite (= %s #x%016x) %s %s)", args[0], 0, args[2], args[1])
	case "popcnt":
		var sum []string
		for i := 0; i < 64; i++ {
			sum = append(sum, fmt.Sprintf("((_ zero_extend 63) ((_ extract %d %d) %s))", i, i, args[0]))
		}
		e = "(bvadd " + strings.Join(sum, " ") + ")"
	default:
		e = "UNKNOWN_" + t.Op
	}
	*defs = append(*defs, fmt.Sprintf("(define-fun %s () (_ BitVec 64) %s)", name, e))
	seen[t.id] = true
	return name
}

// Vars returns the variable names in t.
func Vars(t *Term) []string {
	seen := map[int]bool{}
	var out []string
	var walk func(*Term)
	walk = func(t *Term) {
		if seen[t.id] {
			return
		}
		seen[t.id] = true
		if t.Op == "var" {
			out = append(out, t.Name)
		}
		for _, a := range t.Args {
			walk(a)
		}
	}
	walk(t)
	return out
}

// SMTNotEqual returns an SMT-LIB 2 script that is unsat exactly when a
// and b are equal for every assignment of their variables.
func SMTNotEqual(a, b *Term) string {
	var defs []string
	seen := map[int]bool{}
	ea := SMT(a, &defs, seen)
	eb := SMT(b, &defs, seen)
	vars := map[string]bool{}
	var decls []string
	for _, t := range []*Term{a, b} {
		for _, v := range Vars(t) {
			if !vars[v] {
				vars[v] = true
				decls = append(decls, fmt.Sprintf("(declare-const %s (_ BitVec 64))", v))
			}
		}
	}
	return strings.Join(decls, "\n") + "\n" + strings.Join(defs, "\n") +
		fmt.Sprintf("\n(assert (not (= %s %s)))\n(check-sat)\n", ea, eb)
}
