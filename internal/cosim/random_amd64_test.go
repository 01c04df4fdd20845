//go:build !purego

package cosim

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"unsafe"

	"github.com/vg-crypto/vg/internal/cosim/forms"
)

// special64 are values that random draws rarely hit and arithmetic edge
// cases need: zero, one, signs and carries at 8, 16, 32 and 64 bits, shift
// counts at their limits, q = 2²³ − 2¹³ + 1.
var special64 = []uint64{
	0, 1, 2, 3, 7, 31, 32, 63, 64, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000, 8380417, 8380416,
	0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff, 0xfffffffffffffffe,
}

// word returns a random 64-bit value, one time in eight a special one.
func word(r *rand.Rand) uint64 {
	if r.IntN(8) == 0 {
		return special64[r.IntN(len(special64))]
	}
	return r.Uint64()
}

// vector fills a 32- or 64-byte register: random bytes, or lanes of
// special values, or one 32-bit lane repeated (so lanes compare equal).
func vector(r *rand.Rand, y []byte) {
	switch r.IntN(6) {
	case 0:
		for i := 0; i < len(y); i += 4 {
			binary.LittleEndian.PutUint32(y[i:], uint32(special64[r.IntN(len(special64))]))
		}
	case 1:
		v := uint32(word(r))
		for i := 0; i < len(y); i += 4 {
			binary.LittleEndian.PutUint32(y[i:], v)
		}
	default:
		for i := 0; i < len(y); i += 8 {
			binary.LittleEndian.PutUint64(y[i:], r.Uint64())
		}
	}
}

// vecBytes returns vector register n of the registers s holds (Z if
// s.Wide, else Y).
func vecBytes(s *State, n int) []byte {
	if s.Wide {
		return s.Z[n][:]
	}
	return s.Y[n][:]
}

// gprIndex is the number of a GPR family name ("AX" → 0).
func gprIndex(name string) int {
	for i, r := range forms.GPRs {
		if r == name {
			return i
		}
	}
	return -1
}

// alignment is the alignment a memory operand of in must have: legacy SSE
// instructions other than MOVOU fault on unaligned 16-byte operands, and
// VMOVDQA on unaligned ones (SDM Vol. 2, MOVDQA and "Exceptions Type 1").
func alignment(in forms.Insn) int {
	switch in.Mnemonic {
	case "VMOVDQA":
		return in.MemWidth() / 8
	case "MOVOU", "MOVQ", "MOVL", "MOVB", "MOVW":
		return 1
	}
	if in.MemWidth() == 128 && in.Mnemonic[0] != 'V' {
		return 16
	}
	return 1
}

// randomState draws a state for in. GPRs, flags, MXCSR, ymm and memory are
// random; base and index registers of a memory operand are set so the
// operand lies inside s.Mem. Some draws copy one operand's value into
// another so comparisons see equal values.
func randomState(r *rand.Rand, s *State, in forms.Insn) error {
	for i := range s.GPR {
		s.GPR[i] = word(r)
	}
	s.GPR[4] = 0 // SP is not part of the harness state
	s.Taken = 0
	s.Flags = r.Uint64() & StatusMask
	// Every MXCSR bit below 16 is defined on CPUs with AVX2 (MXCSR_MASK
	// 0xFFFF); exceptions stay irrelevant since no instruction here is
	// floating point.
	s.MXCSR = uint32(r.Uint64() & 0xffff)
	// Only the registers the harness loads: Y, or Z for a wide case.
	if s.Wide {
		for i := range s.Z {
			vector(r, s.Z[i][:])
		}
	} else {
		for i := range s.Y {
			vector(r, s.Y[i][:])
		}
	}
	for i := 0; i < MemSize; i += 8 {
		binary.LittleEndian.PutUint64(s.Mem[i:], r.Uint64())
	}
	// Equal register operands (after the draws above).
	if r.IntN(4) == 0 {
		regs := operandRegs(in)
		if len(regs) >= 2 {
			a, b := regs[r.IntN(len(regs))], regs[r.IntN(len(regs))]
			copyReg(s, a, b)
		}
	}
	// A register operand equal to the immediate, or next to it.
	if r.IntN(4) == 0 {
		for _, o := range in.Ops {
			if o.Kind == "imm" {
				for _, q := range in.Ops {
					if i := gprIndex(q.Reg); i >= 0 && q.Mem == nil {
						s.GPR[i] = uint64(o.Imm) + uint64(r.IntN(3)) - 1
					}
				}
			}
		}
	}
	shiftCounts(r, s, in)
	m := in.MemOp()
	if m == nil {
		return nil
	}
	if in.Mnemonic == "LEAQ" { // no access: any base and index
		return nil
	}
	size := in.MemWidth() / 8
	align := alignment(in)
	off := r.IntN((MemSize-size)/align+1) * align
	ea := uint64(uintptr(unsafe.Pointer(&s.Mem[0]))) + uint64(off)
	base, index := gprIndex(m.Base), -1
	if base < 0 {
		return fmt.Errorf("%s: memory operand without a base register", in.Text)
	}
	var x uint64
	if m.Index != "" {
		index = gprIndex(m.Index)
		x = uint64(r.IntN(16))
		if index == base {
			return fmt.Errorf("%s: base and index alias", in.Text)
		}
		s.GPR[index] = x
	}
	s.GPR[base] = ea - x*uint64(m.Scale) - uint64(m.Disp)
	switch {
	case in.Mnemonic == "LDMXCSR": // reserved MXCSR bits would fault (#GP)
		binary.LittleEndian.PutUint32(s.Mem[off:], uint32(r.Uint64()&0xffff))
	case r.IntN(4) == 0: // memory equal to a register operand
		for _, o := range in.Ops {
			if o.Mem != nil || o.Reg == "" || o.Reg == m.Base || o.Reg == m.Index {
				continue
			}
			var src []byte
			if o.Kind == "xmm" || o.Kind == "ymm" || o.Kind == "zmm" {
				n := 0
				fmt.Sscanf(o.Reg, "X%d", &n)
				src = vecBytes(s, n)
			} else {
				src = binary.LittleEndian.AppendUint64(nil, s.GPR[gprIndex(o.Reg)])
			}
			copy(s.Mem[off:off+size], src)
			break
		}
	}
	return nil
}

// operandRegs lists the register operands of in (not address registers).
func operandRegs(in forms.Insn) []string {
	var out []string
	for _, o := range in.Ops {
		if o.Mem == nil && o.Reg != "" {
			out = append(out, o.Reg)
		}
	}
	return out
}

// copyReg copies register b's value into register a when both are GPRs or
// both vector registers.
func copyReg(s *State, a, b string) {
	ga, gb := gprIndex(a), gprIndex(b)
	switch {
	case ga >= 0 && gb >= 0:
		s.GPR[ga] = s.GPR[gb]
	case ga < 0 && gb < 0:
		var na, nb int
		fmt.Sscanf(a, "X%d", &na)
		fmt.Sscanf(b, "X%d", &nb)
		copy(vecBytes(s, na), vecBytes(s, nb))
	}
}

// shiftCounts makes vector shift counts small half of the time: random
// counts are almost always beyond the lane width, where every shift gives
// zero (or the sign).
func shiftCounts(r *rand.Rand, s *State, in forms.Insn) {
	if r.IntN(2) == 0 || len(in.Ops) != 3 || in.Ops[0].Kind != "xmm" && in.Ops[0].Kind != "ymm" && in.Ops[0].Kind != "zmm" {
		return
	}
	n := 0
	fmt.Sscanf(in.Ops[0].Reg, "X%d", &n)
	switch in.Mnemonic {
	case "VPSLLQ", "VPSRLQ", "VPSLLD", "VPSRLD", "VPSRAD": // count: low quadword
		binary.LittleEndian.PutUint64(vecBytes(s, n), uint64(r.IntN(70)))
	case "VPSLLVD", "VPSRLVD": // a count per dword
		for i := 0; i < 32; i += 4 {
			binary.LittleEndian.PutUint32(vecBytes(s, n)[i:], uint32(r.IntN(40)))
		}
	}
}
