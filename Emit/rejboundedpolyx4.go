package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// boundedSeedBytes is one seed of the four-way sampler: ρ′ ‖ r.
const boundedSeedBytes = 66

func init() { register("rejboundedpolyx4", buildRejBoundedPolyx4) }

// buildRejBoundedPolyx4 emits RejBoundedPolyx4Eta2AVX2 and
// RejBoundedPolyx4Eta4AVX2, then their AVX512 twins. They squeeze the four
// SHAKE256 states by calling KeccakF1600x4 of their variant, so that the permutation they run is the one
// proven on its own and the states change only by those calls; each
// polynomial's block is then read by the rejection loop of the single
// sampler (rejectBoundedBlock). They reach a and the seeds only through
// their arguments after a call, so their callers' buffers may stay on the
// stack.
func buildRejBoundedPolyx4(c *build.Context) {
	for _, v := range []string{"AVX2", "AVX512"} {
		for _, η := range []int{2, 4} {
			emitRejBoundedPolyx4(c, η, v)
		}
	}
}

// emitRejBoundedPolyx4 emits RejBoundedPolyx4Eta<η><variant>.
func emitRejBoundedPolyx4(c *build.Context, η int, variant string) {
	callerOnStack(c, fmt.Sprintf("RejBoundedPolyx4Eta%d%s", η, variant))
	// funcdata.h's NO_LOCAL_POINTERS: the frame holds no pointer the
	// runtime must adjust when the callee grows the stack.
	c.Instruction(&ir.Instruction{Opcode: "NO_LOCAL_POINTERS"})
	args := c.AllocLocal(8) // the permutation's argument
	state := c.AllocLocal(25 * 32)
	// Each state's rate (17 lanes), de-interleaved.
	const stride = shake256Rate
	scratch := c.AllocLocal(4 * stride)
	counts := c.AllocLocal(4 * 8)
	blocks := c.AllocLocal(8)

	c.Comment("Absorb seeds[j] ‖ 0x1F, pad with 0x80 at byte 135 (FIPS 202, §6.2).")
	absorbSeeds4(c, state, boundedSeedBytes)
	c.MOVQ(operand.U64(0x80<<56), reg.RAX)
	last := shake256Rate/8 - 1
	for j := 0; j < 4; j++ {
		c.MOVQ(reg.RAX, state.Offset(32*last+8*j))
		c.MOVQ(operand.U32(0), counts.Offset(8*j))
	}
	c.MOVQ(operand.U32(rejBoundedPolyBlocks), blocks)

	c.Label("block")
	allComplete(c, counts, "full")
	c.LEAQ(state, reg.RAX)
	c.MOVQ(reg.RAX, args)
	callVariant(c, "KeccakF1600x4", variant)
	c.Comment("Transpose lanes 0 to 16 into one buffer per state.")
	for i := 0; i+4 <= last; i += 4 {
		keccak4Transpose(c, state, i, func(j int) operand.Mem { return scratch.Offset(stride*j + 8*i) })
	}
	for j := 0; j < 4; j++ {
		c.MOVQ(state.Offset(32*last+8*j), reg.RAX)
		c.MOVQ(reg.RAX, scratch.Offset(stride*j+8*last))
	}
	// Polynomial j starts at s<j>next (the label of a head of the
	// stream proof: it skips a complete polynomial there).
	for j := 0; j < 4; j++ {
		p, skip := fmt.Sprintf("s%d", j), fmt.Sprintf("s%dnext", j+1)
		if j == 3 {
			skip = "s3skip"
		}
		c.MOVQ(counts.Offset(8*j), reg.RCX)
		c.CMPQ(reg.RCX, operand.U32(256))
		c.JEQ(operand.LabelRef(skip))
		c.Load(c.Param("a"), reg.RDI)
		c.MOVQ(operand.Mem{Base: reg.RDI, Disp: 8 * j}, reg.RDI)
		c.LEAQ(scratch.Offset(stride*j), reg.R8)
		rejectBoundedBlock(c, p, reg.R8, reg.RDI, reg.RCX, p+"done", η)
		c.Label(p + "done")
		c.MOVQ(reg.RCX, counts.Offset(8*j))
		c.Label(skip)
	}
	// The next block starts with the check whether all four are
	// complete; after the last, it is made here.
	c.MOVQ(blocks, reg.RAX)
	c.DECQ(reg.RAX)
	c.MOVQ(reg.RAX, blocks)
	c.JNE(operand.LabelRef("block"))
	allComplete(c, counts, "full")
	c.MOVB(operand.U8(0), result(c))
	c.VZEROUPPER()
	c.RET()

	c.Label("full")
	c.MOVB(operand.U8(1), result(c))
	c.VZEROUPPER()
	c.RET()
}

// allComplete jumps to full if the four counts are 256 (counts are ≤ 256,
// so their AND is 256 exactly then).
func allComplete(c *build.Context, counts operand.Mem, full string) {
	c.MOVQ(counts, reg.RAX)
	for j := 1; j < 4; j++ {
		c.ANDQ(counts.Offset(8*j), reg.RAX)
	}
	c.CMPQ(reg.RAX, operand.U32(256))
	c.JEQ(operand.LabelRef(full))
}
