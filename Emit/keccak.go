package main

import (
	"math/bits"
	"sort"
	"sync"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Keccak-f[1600] constants, derived here from FIPS 202 rather than typed in:
// keccakRho[x+5y] is the ρ offset of lane A[x,y] (FIPS 202 Algorithm 2) and
// keccakRC[i] the ι round constant of round i (Algorithms 5 and 6).
var (
	keccakRho [25]int
	keccakRC  [24]uint64
)

func init() {
	x, y := 1, 0
	for t := 0; t < 24; t++ {
		keccakRho[x+5*y] = ((t + 1) * (t + 2) / 2) % 64
		x, y = y, (2*x+3*y)%5
	}
	for i := range keccakRC {
		for j := 0; j <= 6; j++ {
			keccakRC[i] |= uint64(rcBit(j+7*i)) << (1<<j - 1)
		}
	}
}

// rcBit is rc(t) of FIPS 202 Algorithm 5: an LFSR over GF(2)[x]/(x⁸+x⁶+x⁵+x⁴+1).
func rcBit(t int) uint8 {
	r := uint16(1) // bit k is R[k]
	for i := 0; i < t%255; i++ {
		r <<= 1
		if r&0x100 != 0 {
			r ^= 0x171 // R[0], R[4], R[5], R[6] ^= R[8]; drop R[8]
		}
	}
	return uint8(r & 1)
}

// keccakRCTable emits the 24 round constants as a read-only table.
func keccakRCTable(c *build.Context) operand.Mem {
	rc := c.StaticGlobal("keccakRC")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for _, v := range keccakRC {
		c.AppendDatum(operand.U64(v))
	}
	return rc
}

func init() { register("keccak", buildKeccakF1600) }

// buildKeccakF1600 emits KeccakF1600AMD64 and KeccakF1600BMI2, which
// share the round constants.
func buildKeccakF1600(c *build.Context) {
	rc := keccakRCTable(c)
	for _, v := range []struct {
		symbol string
		body   func(c *build.Context, a, tmp, rc operand.Mem)
	}{
		{"KeccakF1600AMD64", keccakF1600Body},
		{"KeccakF1600BMI2", keccakF1600BodyBMI2},
	} {
		// Not NOSPLIT: the samplers CALL it, and a callee must grow the
		// stack for its own frame (the assembler's stack-bound check).
		function(c, v.symbol)
		tmp := c.AllocLocal(25 * 8)
		c.Load(c.Param("a"), reg.R13)
		v.body(c, operand.Mem{Base: reg.R13}, tmp, rc)
		c.RET()
	}
}

// keccakBuffers returns the buffers a round reads and writes: each round
// writes the other one, so even rounds read a and odd rounds read tmp.
func keccakBuffers(round int, a, tmp operand.Mem) (src, dst operand.Mem) {
	if round%2 == 1 {
		return tmp, a
	}
	return a, tmp
}

// keccakF1600BodyBMI2 is keccakF1600Body with ANDN and RORX: the same
// ping-pong between a and tmp, but lanes stay plain, since ANDN computes
// ¬B[X+1] ∧ B[X+2] into a third register, and RORX rotates into one. The
// last plane's outputs stay in registers, and the next round's θ starts
// from them. With R14 and R15 besides keccakRegs, the lanes
// keccakKeptBMI2 names go from one round to the next in registers and
// are never stored (the routine is called, never inlined, and a caller
// keeps nothing but SP and BP across a CALL).
//
// Rounds 1 to 20 run as a loop of five passes of four rounds (the
// unrolled rounds do not fit the decoded-instruction cache), rounds 21 and
// 22 after it: a pass ends with the moves that put each lane carried to
// the next round back in the register it had when the pass began, ι takes
// the pass's round constants through a pointer in the frame (no register
// is free for it), and a frame slot counts the passes.
func keccakF1600BodyBMI2(c *build.Context, a, tmp, rc operand.Mem) {
	if 20%keccakPassRounds != 0 || keccakPassRounds%2 != 0 {
		panic("keccakPassRounds must be even and divide 20: rounds 1 to 20 are the loop's, 21 to 23 follow it")
	}
	e := &keccakEmitter{c: c, free: append(append([]reg.GPPhysical(nil), keccakRegs...), reg.R14, reg.R15)}
	rcp, passes, spill := c.AllocLocal(8), c.AllocLocal(8), c.AllocLocal(8)
	lane := func(m operand.Mem, i int) operand.Mem { return m.Offset(8 * i) }
	var carried [5]reg.GPPhysical // A[x,4] of the round's input (round ≥ 1)
	var kept [25]reg.GPPhysical   // the keccakKeptBMI2 lanes of the round's input (round ≥ 1)
	// round emits one round; in the loop (looped) ι XORs the constant at
	// rcp's pointer plus 8·((round−1) mod 4) into the stored lane A[0,0]
	// once plane 0 is done, else the table's entry into the output
	// register.
	round := func(round int, looped bool) {
		src, dst := keccakBuffers(round, a, tmp)
		c.Commentf("Round %d", round)
		// θ: C[x] = A[x,0] ⊕ … ⊕ A[x,4], D[x] = C[x−1] ⊕ ROT(C[x+1], 1).
		var col, d [5]reg.GPPhysical
		for x := 0; x < 5; x++ {
			if round > 0 && !keccakKeptBMI2(x+20) {
				col[x] = carried[x]
			}
			for y := 0; y < 5; y++ {
				L := x + 5*y
				switch {
				case round > 0 && y == 4:
					if col[x] != carried[x] {
						c.XORQ(carried[x], col[x]) // A[4,4], kept
					}
				case round > 0 && keccakKeptBMI2(L):
					c.XORQ(kept[L], col[x])
				case col[x] == nil:
					col[x] = e.alloc()
					c.MOVQ(lane(src, L), col[x])
				default:
					c.XORQ(lane(src, L), col[x])
				}
			}
		}
		// D[x] overwrites C[x+1] once C[x+1]'s plain use, D[x+2], is
		// done: the order 0, 3, 1, 4, 2 needs one more register, for D[0].
		for k, x := range [5]int{0, 3, 1, 4, 2} {
			d[x] = col[(x+1)%5]
			if k == 0 {
				d[x] = e.alloc()
			}
			c.RORXQ(operand.U8(63), col[(x+1)%5], d[x])
			c.XORQ(col[(x+4)%5], d[x])
		}
		e.release(col[1]) // C[1]: only read, by D[0] and D[2]
		for Y := 0; Y < 5; Y++ {
			// B[X] = ROT(A[x,y] ⊕ D[x], ρ[x,y]) with (X,Y) = π(x,y).
			var b [5]reg.GPPhysical
			for X := 0; X < 5; X++ {
				x := (X + 3*Y) % 5
				L := x + 5*X
				if round > 0 && keccakKeptBMI2(L) {
					b[X] = kept[L]
				} else {
					b[X] = e.alloc()
					c.MOVQ(lane(src, L), b[X])
				}
				c.XORQ(d[x], b[X])
				if r := keccakRho[L]; r != 0 {
					c.RORXQ(operand.U8(64-r), b[X], b[X])
				}
				if Y == 4 {
					e.release(d[x]) // its last use
				}
			}
			// χ and ι: E[X] = B[X] ⊕ (¬B[X+1] ∧ B[X+2]). The outputs only
			// stored first, through one temporary; then those that stay
			// in registers (the kept lanes, and the last plane's, from
			// which the next round's θ starts), each in a register of its
			// own, which may be one of a B[X] no output reads any more.
			stays := func(X int) bool {
				return round < 23 && (Y == 4 || keccakKeptBMI2(X+5*Y))
			}
			var order []int
			for _, last := range []bool{false, true} {
				for X := 0; X < 5; X++ {
					if stays(X) == last {
						order = append(order, X)
					}
				}
			}
			readers := [5]int{3, 3, 3, 3, 3} // B[X] is read by E[X], E[X−1], E[X−2]
			var t reg.GPPhysical
			for _, X := range order {
				var out reg.GPPhysical
				switch {
				case stays(X):
					if t != nil {
						e.release(t)
						t = nil
					}
					out = e.alloc()
					if Y == 4 {
						carried[X] = out
					}
					if keccakKeptBMI2(X + 5*Y) {
						kept[X+5*Y] = out
					}
				case t == nil:
					t = e.alloc()
					out = t
				default:
					out = t
				}
				c.ANDNQ(b[(X+2)%5], b[(X+1)%5], out)
				c.XORQ(b[X], out)
				if X == 0 && Y == 0 && !looped {
					c.XORQ(rc.Offset(8*round), out)
				}
				if round == 23 || !keccakKeptBMI2(X+5*Y) {
					c.MOVQ(out, lane(dst, X+5*Y))
				}
				for _, j := range []int{X, (X + 1) % 5, (X + 2) % 5} {
					if readers[j]--; readers[j] == 0 {
						e.release(b[j])
					}
				}
			}
			if t != nil {
				e.release(t)
			}
			if Y == 0 && looped {
				// A[0,0] is stored (never kept): ι on it in memory.
				r := e.alloc()
				c.MOVQ(rcp, r)
				c.MOVQ(operand.Mem{Base: r, Disp: 8 * ((round - 1) % keccakPassRounds)}, r)
				c.XORQ(r, lane(dst, 0))
				e.release(r)
			}
		}
	}
	round(0, false)
	// The registers of the lanes carried into round 1, where every pass
	// must leave them.
	carried0, kept0 := carried, kept
	free0 := append([]reg.GPPhysical(nil), e.free...)
	r := e.alloc()
	c.LEAQ(rc.Offset(8), r)
	c.MOVQ(r, rcp)
	e.release(r)
	c.MOVQ(operand.U32(20/keccakPassRounds), passes)
	e.free = append([]reg.GPPhysical(nil), free0...)
	c.Label("rounds")
	for r := 1; r <= keccakPassRounds; r++ {
		round(r, true)
	}
	// Back to the registers of the pass's start: the moves of a
	// permutation of registers, each cycle through a free register.
	want := map[reg.GPPhysical]reg.GPPhysical{} // register at the start ← register now
	for x := range carried {
		want[carried0[x]] = carried[x]
	}
	for L := range kept {
		if keccakKeptBMI2(L) {
			want[kept0[L]] = kept[L]
		}
	}
	// A cycle goes through a register no move reads or writes, if there
	// is one, else through the frame.
	var t operand.Op = spill
	for _, f := range e.free {
		if _, ok := want[f]; !ok {
			t = f
			break
		}
	}
	keccakMoves(c, want, t)
	carried, kept = carried0, kept0
	e.free = append([]reg.GPPhysical(nil), free0...)
	c.ADDQ(operand.U8(8*keccakPassRounds), rcp)
	c.DECQ(passes)
	c.JNE(operand.LabelRef("rounds"))
	for r := 21; r <= 23; r++ {
		round(r, false)
	}
}

// keccakPassRounds is the rounds of one pass of KeccakF1600BMI2's loop:
// four, so that the moves back and the loop's count cost little per round
// and the code still fits the decoded-instruction cache. It divides 20
// and is even (the ping-pong between a and tmp is where it was).
const keccakPassRounds = 4

// keccakMoves emits the moves that leave in each register dst of want the
// value register want[dst] holds now, all at once (a parallel move), with
// t, a location no move reads or writes, to break cycles.
func keccakMoves(c *build.Context, want map[reg.GPPhysical]reg.GPPhysical, t operand.Op) {
	pending := map[reg.GPPhysical]operand.Op{}
	for dst, src := range want {
		if dst != src {
			pending[dst] = src
		}
	}
	for len(pending) > 0 {
		// A register no pending move reads may be written now; in sorted
		// order, so the code does not depend on map order.
		var ready []reg.GPPhysical
		read := map[operand.Op]bool{}
		for _, src := range pending {
			read[src] = true
		}
		for dst := range pending {
			if !read[dst] {
				ready = append(ready, dst)
			}
		}
		if len(ready) > 0 {
			sortRegs(ready)
			for _, dst := range ready {
				c.MOVQ(pending[dst], dst)
				delete(pending, dst)
			}
			continue
		}
		// Only cycles are left: save one register of one and let the move
		// that reads it read t.
		var dsts []reg.GPPhysical
		for dst := range pending {
			dsts = append(dsts, dst)
		}
		sortRegs(dsts)
		d := dsts[0]
		c.MOVQ(d, t)
		for dst, src := range pending {
			if src == d {
				pending[dst] = t
			}
		}
	}
}

// sortRegs sorts registers by their hardware number.
func sortRegs(rs []reg.GPPhysical) {
	sort.Slice(rs, func(i, j int) bool { return rs[i].PhysicalIndex() < rs[j].PhysicalIndex() })
}

// keccakKeptBMI2 says whether KeccakF1600BMI2 carries lane L from one
// round to the next in a register: A[X,X] for X = 1 to 4, which π moves
// to the next round's first plane, so each is held only from output plane
// X to the end of the round, and A[1,3] and A[4,3], which π moves to its
// second and third planes. The plane computing a lane and the plane
// reading it need no register more (a dead B[X], the lane itself), nor
// does the last plane (D's registers are free by then): with the five of
// D, five of B and a temporary, R14 and R15 make room for these six and
// no other lane.
func keccakKeptBMI2(L int) bool {
	x, y := L%5, L/5
	return x == y && x > 0 || L == 16 || L == 19
}

// keccakRegs are the registers of the ×1 permutation: AX..R12, so that
// callers keep R13 for a pointer and R14, R15 and BP stay untouched.
var keccakRegs = []reg.GPPhysical{
	reg.RAX, reg.RBX, reg.RCX, reg.RDX, reg.RSI, reg.RDI,
	reg.R8, reg.R9, reg.R10, reg.R11, reg.R12,
}

// keccakVal is a register holding a lane-sized value, complemented if comp
// ("lane complementing", Bertoni et al., Keccak implementation overview,
// §2.2): a complemented value is its plain value ⊕ 1⁶⁴.
type keccakVal struct {
	r    reg.GPPhysical
	comp bool
}

// keccakEmitter emits the rounds, handing out registers from a free list.
type keccakEmitter struct {
	c    *build.Context
	free []reg.GPPhysical
}

func (e *keccakEmitter) alloc() reg.GPPhysical {
	r := e.free[0]
	e.free = e.free[1:]
	return r
}

func (e *keccakEmitter) release(r reg.GPPhysical) { e.free = append(e.free, r) }

// keccakF1600Body emits the 24 rounds of Keccak-f[1600] on the state at a
// (25 lanes of 8 bytes), using tmp (another 200 bytes) as the other half of
// a ping-pong: even rounds read a and write tmp, odd rounds the reverse, so
// after 24 rounds the result is in a. rc is keccakRCTable's table. Both
// KeccakF1600AMD64 and RejNTTPolyAMD64 use this one body; it is straight-line
// code and uses only keccakRegs.
//
// Each round is θ, then ρ, π, χ (and ι) one output plane at a time, from the
// lanes in memory. The last plane's five outputs stay in registers besides
// being stored, and the next round's θ reads them from there. Between rounds
// lanes are kept complemented as keccakPolarities says; round 0 reads plain
// lanes and round 23 writes plain lanes.
func keccakF1600Body(c *build.Context, a, tmp, rc operand.Mem) {
	e := &keccakEmitter{c: c, free: append([]reg.GPPhysical(nil), keccakRegs...)}
	pol := keccakPolarities()
	var pin [25]bool
	var carried [5]keccakVal // lane A[x,4] of the round's input (round ≥ 1)
	for round := 0; round < 24; round++ {
		src, dst := keccakBuffers(round, a, tmp)
		lane := func(m operand.Mem, i int) operand.Mem { return m.Offset(8 * i) }
		c.Commentf("Round %d", round)
		// θ: C[x] = A[x,0] ⊕ … ⊕ A[x,4]; the carried lane last, as it is
		// the latest to be ready. A value's polarity is the parity of its
		// inputs' polarities (ROT(1⁶⁴) = 1⁶⁴).
		var col [5]keccakVal
		for x := 0; x < 5; x++ {
			col[x] = keccakVal{r: e.alloc(), comp: pin[x]}
			c.MOVQ(lane(src, x), col[x].r)
			ys := 5
			if round > 0 {
				ys = 4
			}
			for y := 1; y < ys; y++ {
				c.XORQ(lane(src, x+5*y), col[x].r)
				col[x].comp = col[x].comp != pin[x+5*y]
			}
			if round > 0 {
				c.XORQ(carried[x].r, col[x].r)
				col[x].comp = col[x].comp != carried[x].comp
				e.release(carried[x].r)
			}
		}
		d := e.theta(col)
		var pout [25]bool
		if round < 23 {
			pout = pol[round]
		}
		for Y := 0; Y < 5; Y++ {
			// B[X] = ROT(A[x,y] ⊕ D[x], ρ[x,y]) with (X,Y) = π(x,y):
			// x = X+3Y, y = X.
			var b [5]keccakVal
			for X := 0; X < 5; X++ {
				x := (X + 3*Y) % 5
				b[X] = keccakVal{r: e.alloc(), comp: pin[x+5*X] != d[x].comp}
				c.MOVQ(lane(src, x+5*X), b[X].r)
				c.XORQ(d[x].r, b[X].r)
				if r := keccakRho[x+5*X]; r != 0 {
					c.ROLQ(operand.U8(r), b[X].r)
				}
			}
			last := Y == 4
			if last {
				for x := range d {
					e.release(d[x].r)
				}
			}
			var iota *operand.Mem
			if Y == 0 {
				m := rc.Offset(8 * round)
				iota = &m
			}
			var po [5]bool
			copy(po[:], pout[5*Y:5*Y+5])
			out := e.chi(b, po, iota, func(X int) operand.Mem { return lane(dst, X+5*Y) }, last)
			if last {
				carried = out
			}
		}
		pin = pout
	}
	for _, v := range carried {
		e.release(v.r)
	}
}

// theta returns D[x] = C[x−1] ⊕ ROT(C[x+1], 1) (FIPS 202, Algorithm 1),
// mostly in place: D[x] overwrites C[x+1] once C[x+1]'s plain use, D[x+2],
// is done, which orders D[0], D[3], D[1], D[4], D[2]; only the first needs
// a copy. The registers of col are taken over or released.
func (e *keccakEmitter) theta(col [5]keccakVal) [5]keccakVal {
	c := e.c
	var d [5]keccakVal
	for k, x := range [5]int{0, 3, 1, 4, 2} {
		src, other := col[(x+1)%5], col[(x+4)%5]
		r := src.r
		if k == 0 {
			r = e.alloc()
			c.MOVQ(src.r, r)
		}
		c.ROLQ(operand.U8(1), r)
		c.XORQ(other.r, r)
		d[x] = keccakVal{r: r, comp: src.comp != other.comp}
	}
	e.release(col[1].r) // C[1]: only read, by D[0] and D[2]
	return d
}

// keccakChiOrder is the order in which chi computes a plane's outputs for
// rotation k: k, k+1, k+3, k+2, k+4. Output X reads B[X], B[X+1], B[X+2], so
// B[k+3] is dead after output k+2 (4th) and B[k], B[k+1] after output k+4
// (5th): these two work in place, and only three outputs need a copy.
func keccakChiOrder(k int) [5]int {
	return [5]int{k, (k + 1) % 5, (k + 3) % 5, (k + 2) % 5, (k + 4) % 5}
}

// keccakPlanePlan is how chi computes one plane of χ (FIPS 202, Algorithm
// 2), E[X] = B[X] ⊕ (¬B[X+1] ∧ B[X+2]), from registers whose polarities are
// given.
type keccakPlanePlan struct {
	flips  uint8   // bit X: complement B[X] in place first
	rot    int     // keccakChiOrder(rot)
	firstC [5]bool // output X starts from B[X+2] (else from B[X+1])
	cost   int     // instructions beyond the plane's 10 ∧/∨ and ⊕, 5 stores
}

// keccakChiOutput says how output X is computed from b and c, the registers
// of B[X+1] and B[X+2] with polarities pb and pc after the flips, when the
// operand copied (or taken over) and combined into is c if firstC, else b:
// that operand is complemented first (not) if pb = pc, since ¬b ∧ c is then
// B ∧ C of the registers if b's register is complemented and c's is not,
// and its complement B ∨ C in the opposite case. inv says the result is that
// complement.
func keccakChiOutput(pb, pc, firstC bool) (not, and, inv bool) {
	not = pb == pc
	if not && !firstC {
		pb = !pb
	}
	return not, pb, !pb
}

// keccakPlaneCost returns the cheapest plan for a plane whose registers have
// polarities pb (bit X for B[X]) and whose outputs must have polarities po.
func keccakPlaneCost(pb, po uint8) keccakPlanePlan {
	best := keccakPlanePlan{cost: 1 << 30}
	for flips := uint8(0); flips < 32; flips++ {
		q := pb ^ flips
		bit := func(X int) bool { return q>>(X%5)&1 == 1 }
		for rot := 0; rot < 5; rot++ {
			p := keccakPlanePlan{flips: flips, rot: rot, cost: bits.OnesCount8(flips)}
			for i, X := range keccakChiOrder(rot) {
				if i < 3 {
					p.cost++ // the copy
				}
				bestOut := 1 << 30
				for _, firstC := range []bool{false, true} {
					if i == 3 && firstC {
						continue // only B[X+1] is dead here
					}
					not, _, inv := keccakChiOutput(bit(X+1), bit(X+2), firstC)
					n := 0
					if not {
						n++
					}
					if (bit(X) != inv) != (po>>X&1 == 1) {
						n++ // final NOT
					}
					if n < bestOut {
						bestOut, p.firstC[X] = n, firstC
					}
				}
				p.cost += bestOut
			}
			if p.cost < best.cost {
				best = p
			}
		}
	}
	return best
}

// keccakPlaneCosts[pb][po] is keccakPlaneCost(pb, po).
var keccakPlaneCosts = func() (t [32][32]keccakPlanePlan) {
	for pb := range t {
		for po := range t[pb] {
			t[pb][po] = keccakPlaneCost(uint8(pb), uint8(po))
		}
	}
	return t
}()

// keccakPlanePolarities returns, for a round reading lanes with polarities
// pin (bit x+5y for A[x,y]), the polarities (bit X) of the registers B[X]
// of each output plane Y: that of A[x,y] ⊕ D[x] for (X,Y) = π(x,y), where
// D[x]'s is the parity of columns x−1 and x+1.
func keccakPlanePolarities(pin uint32) (pb [5]uint8) {
	var col [5]uint32
	for x := 0; x < 5; x++ {
		for y := 0; y < 5; y++ {
			col[x] ^= pin >> (x + 5*y) & 1
		}
	}
	for Y := 0; Y < 5; Y++ {
		for X := 0; X < 5; X++ {
			x := (X + 3*Y) % 5
			p := pin>>(x+5*X)&1 ^ col[(x+4)%5] ^ col[(x+1)%5]
			pb[Y] |= uint8(p) << X
		}
	}
	return pb
}

// keccakPolarities returns the polarity (true: complemented) of every lane
// after rounds 0 to 22, chosen to save NOTs over the 24 rounds; round 0
// reads plain lanes and round 23 writes plain lanes. The choice only changes
// the instruction count, never the result.
var keccakPolarities = sync.OnceValue(func() [23][25]bool {
	p, _ := keccakSearchPolarities(64)
	return p
})

// keccakSearchPolarities is a beam search of the given width over the
// rounds: from each kept choice of polarities after a round, every plane may
// take any of its cheapest output polarities (keccakPlaneCosts), and the
// cheapest results so far go on. It returns the polarities and their cost.
func keccakSearchPolarities(width int) ([23][25]bool, int) {
	type state struct {
		cost int
		path []uint32 // polarities after each round so far
	}
	beam := []state{{}}
	for round := 0; round < 24; round++ {
		next := map[uint32]state{}
		for _, s := range beam {
			var pin uint32
			if len(s.path) > 0 {
				pin = s.path[len(s.path)-1]
			}
			// Each plane's cheapest output polarities (only plain ones in
			// round 23), combined over the five planes.
			type cand struct {
				cost int
				out  uint32
			}
			cands := []cand{{s.cost, 0}}
			for Y, pb := range keccakPlanePolarities(pin) {
				least := 1 << 30
				for po := range 32 {
					if round < 23 || po == 0 {
						least = min(least, keccakPlaneCosts[pb][po].cost)
					}
				}
				var grown []cand
				for _, cd := range cands {
					for po := range 32 {
						if (round < 23 || po == 0) && keccakPlaneCosts[pb][po].cost == least {
							grown = append(grown, cand{cd.cost + least, cd.out | uint32(po)<<(5*Y)})
						}
					}
				}
				cands = grown
			}
			for _, cd := range cands {
				if old, ok := next[cd.out]; !ok || cd.cost < old.cost {
					next[cd.out] = state{cd.cost, append(append([]uint32(nil), s.path...), cd.out)}
				}
			}
		}
		keys := make([]uint32, 0, len(next))
		for k := range next {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			ci, cj := next[keys[i]].cost, next[keys[j]].cost
			return ci < cj || ci == cj && keys[i] < keys[j]
		})
		beam = beam[:0]
		for _, k := range keys[:min(len(keys), width)] {
			beam = append(beam, next[k])
		}
	}
	var pol [23][25]bool
	for r := range pol {
		for i := range pol[r] {
			pol[r][i] = beam[0].path[r]>>i&1 == 1
		}
	}
	return pol, beam[0].cost
}

// chi emits χ of one plane, and ι if iota is not nil: output X goes to
// dst(X) with polarity po[X]. If keep, the outputs stay in registers and are
// returned; otherwise every register of b is released.
func (e *keccakEmitter) chi(b [5]keccakVal, po [5]bool, iota *operand.Mem, dst func(X int) operand.Mem, keep bool) [5]keccakVal {
	c := e.c
	var pb, pob uint8
	for X := range b {
		if b[X].comp {
			pb |= 1 << X
		}
		if po[X] {
			pob |= 1 << X
		}
	}
	p := keccakPlaneCosts[pb][pob]
	for X := range b {
		if p.flips>>X&1 == 1 {
			c.NOTQ(b[X].r)
			b[X].comp = !b[X].comp
		}
	}
	var t reg.GPPhysical
	if !keep {
		t = e.alloc()
	}
	var out [5]keccakVal
	for i, X := range keccakChiOrder(p.rot) {
		first, second := b[(X+1)%5], b[(X+2)%5]
		if p.firstC[X] {
			first, second = second, first
		}
		r := first.r // dead from the 4th output on
		if i < 3 {
			r = t
			if keep {
				r = e.alloc()
			}
			c.MOVQ(first.r, r)
		}
		not, and, inv := keccakChiOutput(b[(X+1)%5].comp, b[(X+2)%5].comp, p.firstC[X])
		if not {
			c.NOTQ(r)
		}
		if and {
			c.ANDQ(second.r, r)
		} else {
			c.ORQ(second.r, r)
		}
		c.XORQ(b[X].r, r)
		if b[X].comp != inv != po[X] {
			c.NOTQ(r)
		}
		if iota != nil && X == 0 {
			c.XORQ(*iota, r)
		}
		c.MOVQ(r, dst(X))
		out[X] = keccakVal{r: r, comp: po[X]}
	}
	if !keep {
		e.release(t)
		for X := range b {
			e.release(b[X].r)
		}
		return out
	}
	for X := range b {
		kept := false
		for _, o := range out {
			kept = kept || o.r == b[X].r
		}
		if !kept {
			e.release(b[X].r)
		}
	}
	return out
}
