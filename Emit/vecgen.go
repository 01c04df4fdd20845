package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Machinery that the NTT-domain generators share whatever their vector
// width: SSE2 (nttsse2.go, four 32-bit lanes), AVX2 (nttavx2.go, eight)
// and AVX-512 (nttavx512.go, sixteen).

// layout says which coefficient index bit each lane bit and each register
// bit of the data registers stand for; fixed holds the index bits the
// block fixes. A coefficient index has eight bits b7…b0.
type layout struct {
	lanes, regs []int
	fixed       int
}

// newLayout returns the layout whose lane bits stand for index bits 0,
// 1, …, whose register bits stand for regs, with the index bits fixed set.
func newLayout(laneBits int, fixed int, regs ...int) layout {
	lay := layout{lanes: make([]int, laneBits), regs: regs, fixed: fixed}
	for p := range lay.lanes {
		lay.lanes[p] = p
	}
	return lay
}

// clone returns a copy that shares no storage with lay, for a generator to
// permute.
func (lay layout) clone() layout {
	return layout{lanes: append([]int(nil), lay.lanes...), regs: append([]int(nil), lay.regs...), fixed: lay.fixed}
}

// index is the coefficient index in lane l of data register r.
func (lay *layout) index(r, l int) int {
	idx := lay.fixed
	for p, b := range lay.regs {
		idx |= (r >> p & 1) << b
	}
	for p, b := range lay.lanes {
		idx |= (l >> p & 1) << b
	}
	return idx
}

// natural reports whether lane bit p stands for index bit p for every p:
// the layout in which a register loads and stores consecutive coefficients.
func (lay *layout) natural() bool {
	for p, b := range lay.lanes {
		if b != p {
			return false
		}
	}
	return true
}

// regBit returns the register bit that stands for index bit β.
func (lay *layout) regBit(β int) int {
	for p, b := range lay.regs {
		if b == β {
			return p
		}
	}
	panic(fmt.Sprintf("index bit %d is not a register bit", β))
}

// twiddleFor computes, for the butterflies between data register lo and
// its partner, each lane's plain twiddle from the index of its lower
// coefficient.
func (lay *layout) twiddleFor(lo int, f func(idx int) uint32) []uint32 {
	v := make([]uint32, 1<<len(lay.lanes))
	for l := range v {
		v[l] = f(lay.index(lo, l))
	}
	return v
}

// ctZetas returns the twiddles ζ^BitRev₈(m) of NTT's layer on index bit β
// (Algorithm 41, lines 9 and 10) for the butterflies between data register
// lo and its partner.
func (lay *layout) ctZetas(lo, β int) []uint32 {
	return lay.twiddleFor(lo, func(idx int) uint32 {
		return nttZetaPow(bitRev8((256 + idx) >> (β + 1))) // m of line 9
	})
}

// gsZetas returns the twiddles ζ^BitRev₈(m) of NTT⁻¹'s layer on index bit
// β (Algorithm 42, lines 9 and 10; the butterflies take line 10's sign),
// each times scale mod q, for the butterflies between data register lo and
// its partner.
func (lay *layout) gsZetas(lo, β int, scale uint32) []uint32 {
	return lay.twiddleFor(lo, func(idx int) uint32 {
		m := 1<<(8-β) - 1 - idx>>(β+1) // m of line 9
		return uint32(uint64(nttZetaPow(bitRev8(m))) * uint64(scale) % mldsaQ)
	})
}

// pairs calls f for each pair of the n data registers that differ in
// register bit p, the one with the bit clear first.
func pairs(n, p int, f func(lo, hi int)) {
	for r := 0; r < n; r++ {
		if r>>p&1 == 0 {
			f(r, r|1<<p)
		}
	}
}

// constTable is a routine's table of constant vectors of 32-bit lanes,
// laid down as one read-only DATA symbol. Each distinct vector is one
// entry, aligned to the vector's size.
type constTable struct {
	c      *build.Context
	sym    operand.Symbol
	lanes  int
	spare  int // zero bytes after the last entry
	table  [][]uint32
	offset map[string]int
	// rec, when set, answers vector in place of the table (passLoop).
	rec func(v []uint32) operand.Mem
}

func newConstTable(c *build.Context, name string, lanes int) *constTable {
	return &constTable{c: c, sym: operand.NewStaticSymbol(name), lanes: lanes, offset: map[string]int{}}
}

// vector returns the table entry holding v, adding it if needed.
func (t *constTable) vector(v []uint32) operand.Mem {
	if len(v) != t.lanes {
		panic(fmt.Sprintf("a vector of %d lanes in a table of %d", len(v), t.lanes))
	}
	if t.rec != nil {
		return t.rec(v)
	}
	return t.entry(v)
}

// entry returns the table entry holding v, adding it if needed.
func (t *constTable) entry(v []uint32) operand.Mem {
	key := fmt.Sprint(v)
	off, ok := t.offset[key]
	if !ok {
		off = 4 * t.lanes * len(t.table)
		t.table = append(t.table, append([]uint32(nil), v...))
		t.offset[key] = off
	}
	return operand.NewDataAddr(t.sym, off)
}

// broadcast returns the table entry holding x in every lane.
func (t *constTable) broadcast(x uint32) operand.Mem { return t.vector(splat(t.lanes, x)) }

// emitTable lays the table down.
func (t *constTable) emitTable() {
	t.c.StaticGlobal(t.sym.Name)
	t.c.DataAttributes(attr.RODATA | attr.NOPTR)
	for _, v := range t.table {
		for _, x := range v {
			t.c.AppendDatum(operand.U32(x))
		}
	}
	for i := 0; i < t.spare; i += 8 {
		t.c.AppendDatum(operand.U64(0))
	}
}

// splat returns a vector of n lanes, each x.
func splat(n int, x uint32) []uint32 {
	v := make([]uint32, n)
	for i := range v {
		v[i] = x
	}
	return v
}

// pool is a generator's pool of temporary vector registers.
type pool struct{ free []reg.VecPhysical }

func (p *pool) temp() reg.VecPhysical {
	t := p.free[0]
	p.free = p.free[1:]
	return t
}

func (p *pool) release(ts ...reg.VecPhysical) { p.free = append(p.free, ts...) }

// reset makes ts the whole pool.
func (p *pool) reset(ts ...reg.VecPhysical) { p.free = ts }

// centredTwiddles returns, for each lane's plain constant x, x·2³² mod q
// taken in (−q/2, q/2] as a signed word (z) and z·q⁻¹ mod 2³² (zq): the
// factors of the signed Montgomery product (nttavx2.go).
func centredTwiddles(plain []uint32) (z, zq []uint32) {
	z, zq = make([]uint32, len(plain)), make([]uint32, len(plain))
	for l, x := range plain {
		m := int64(x) << 32 % mldsaQ
		if m > mldsaQ/2 {
			m -= mldsaQ
		}
		z[l] = uint32(int32(m))
		zq[l] = z[l] * nttQInv
	}
	return z, zq
}

// oddLanes returns v with each odd lane copied into the even lane below
// it: a vector whose entries are all equal is its own.
func oddLanes(v []uint32) []uint32 {
	o := make([]uint32, len(v))
	for l := 0; l < len(v); l += 2 {
		o[l], o[l+1] = v[l+1], v[l+1]
	}
	return o
}

// twiddle is the table entries of a twiddle vector: z[l] for lane l (the
// constant ·2³² mod q, centred) and z[l]·q⁻¹ mod 2³², each also with its
// odd lanes moved down to the even ones, which VPMULDQ reads. The moved
// copies are entries of their own, aligned like every entry: a read at an
// entry + 4 would split a cache line every other entry.
type twiddle struct{ z, zq, zOdd, zqOdd operand.Mem }

// signedTwiddles returns the table entries of the twiddle vector plain for
// the signed Montgomery product of nttavx2.go and nttavx512.go.
func (t *constTable) signedTwiddles(plain []uint32) twiddle {
	z, zq := centredTwiddles(plain)
	return twiddle{t.vector(z), t.vector(zq), t.vector(oddLanes(z)), t.vector(oddLanes(zq))}
}
