package main

import (
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("valgrind", buildValgrindClientRequest) }

// buildValgrindClientRequest emits valgrind.h's client request for amd64
// (__SPECIAL_INSTRUCTION_PREAMBLE and VALGRIND_DO_CLIENT_REQUEST_EXPR):
// RAX = the request block, RDX = the default result, the four rotations of
// RDI, then XCHGQ BX, BX. BX is zeroed first: valgrind ignores its value,
// and the caller's registers (perhaps secret) then never reach XCHG, which
// the model does not count as data-independent in time.
func buildValgrindClientRequest(c *build.Context) {
	function(c, "ValgrindClientRequestAMD64")
	c.Attributes(attr.NOSPLIT)
	c.Load(c.Param("args"), reg.RAX)
	c.XORL(reg.EDX, reg.EDX)
	c.XORL(reg.EBX, reg.EBX)
	for _, n := range []uint64{3, 13, 61, 51} {
		c.ROLQ(operand.Imm(n), reg.RDI)
	}
	c.XCHGQ(reg.RBX, reg.RBX)
	c.RET()
}
