package main

import (
	"fmt"
	"slices"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// passLoop emits, as a loop of len(fixed) passes that CX counts down,
// what body emits for one pass: body(fixed[k]) is pass k, on the
// coefficients at DI + k·stride bytes (the pass's layout fixes the index
// bits fixed[k], and its data addresses are those of fixed[0]). The passes
// must differ only in their data and in the constant vectors they read: a
// vector the same in every pass stays in the shared table, the others go
// to table, one block a pass (a read whose vectors in every pass repeat an
// earlier read's shares its entry), through R8, which moves one block on
// after each pass. DI is put back after the loop. The generator does not
// compare the passes' instructions: the routine's proof is what shows
// that the loop computes the transform. The code of one pass, not of all
// of them, then sits in the instruction cache beside the other routines of
// a signing attempt.
func (g *nttGen) passLoop(label, table string, fixed []int, stride int, body func(fixed int)) *constTable {
	n := len(fixed)
	c := g.c
	data, free, lay := g.data, slices.Clone(g.free), g.lay.clone()
	// Each pass first goes to a context of its own, which is thrown away:
	// only the vectors it reads are kept.
	reqs := make([][][]uint32, n)
	for k := range n {
		scratch := build.NewContext()
		scratch.Function("pass")
		g.c, g.data, g.free, g.lay = scratch, data, slices.Clone(free), lay.clone()
		g.rec = func(v []uint32) operand.Mem {
			reqs[k] = append(reqs[k], slices.Clone(v))
			return operand.Mem{Base: reg.R8}
		}
		body(fixed[k])
	}
	g.c, g.data, g.free, g.lay = c, data, slices.Clone(free), lay.clone()
	// Read i: shared if every pass reads the same vector, else the next
	// entry of each pass's block.
	blocks := make([][][]uint32, n)
	slot := make([]int, len(reqs[0]))
	seen := map[string]int{} // the vectors of a read in every pass: its slot
	for i, v := range reqs[0] {
		slot[i] = -1
		same := true
		for k := 1; k < n; k++ {
			if len(reqs[k]) != len(reqs[0]) {
				panic(fmt.Sprintf("%s: pass %d reads %d vectors, pass 0 %d", label, k, len(reqs[k]), len(reqs[0])))
			}
			same = same && slices.Equal(reqs[k][i], v)
		}
		if same {
			continue
		}
		var key []uint32
		for k := range n {
			key = append(key, reqs[k][i]...)
		}
		j, ok := seen[fmt.Sprint(key)]
		if !ok {
			j = len(blocks[0])
			seen[fmt.Sprint(key)] = j
			for k := range n {
				blocks[k] = append(blocks[k], reqs[k][i])
			}
		}
		slot[i] = j
	}
	var pt *constTable
	if len(blocks[0]) > 0 {
		pt = newConstTable(c, table, g.lanes)
		for _, b := range blocks {
			pt.table = append(pt.table, b...)
		}
		c.LEAQ(operand.NewDataAddr(pt.sym, 0), reg.R8)
	}
	var steps []loopStep
	if pt != nil {
		steps = append(steps, loopStep{reg.R8, 4 * g.lanes * len(blocks[0])})
	}
	steps = append(steps, loopStep{g.w, stride})
	countedLoop(c, label, n, steps, func() {
		i := 0
		g.rec = func(v []uint32) operand.Mem {
			if !slices.Equal(v, reqs[0][i]) {
				panic(fmt.Sprintf("%s: pass 0 read %d differs from its first run", label, i))
			}
			j := slot[i]
			i++
			if j < 0 {
				return g.entry(v)
			}
			return operand.Mem{Base: reg.R8, Disp: 4 * g.lanes * j}
		}
		body(fixed[0])
		g.rec = nil
	})
	c.SUBQ(operand.U32(n*stride), g.w)
	return pt
}
