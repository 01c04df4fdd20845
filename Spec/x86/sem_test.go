package x86

import (
	"strings"
	"testing"
)

// The expected values below are computed by hand from the SDM's
// descriptions, not by running the model.

const memBase = 0x10000

func newM(t *testing.T) *Machine[uint64] {
	t.Helper()
	m := NewMachine[uint64](Conc{}, 0)
	m.AddRegion("mem", Buffer, memBase, 256, true, 0)
	m.Start(&Routine{Name: "test", Labels: map[string]int{"L": 0}})
	return m
}

func run(t *testing.T, m *Machine[uint64], lines ...string) {
	t.Helper()
	for _, l := range lines {
		in, err := ParseInsn(l)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if err := m.Exec(in); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
}

func flag(t *testing.T, m *Machine[uint64], f int) uint64 {
	t.Helper()
	v, err := m.Flag(f)
	if err != nil {
		t.Fatalf("flag %s: %v", flagNames[f], err)
	}
	return v
}

func eq(t *testing.T, what string, got, want uint64) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %#x, want %#x", what, got, want)
	}
}

func TestGPRArithmetic(t *testing.T) {
	m := newM(t)
	m.GPR[AX], m.GPR[BX] = ^uint64(0), 1
	run(t, m, "ADDQ BX, AX")
	eq(t, "AX", m.GPR[AX], 0)
	eq(t, "CF", flag(t, m, CF), 1)
	eq(t, "ZF", flag(t, m, ZF), 1)
	eq(t, "OF", flag(t, m, OF), 0)
	eq(t, "PF", flag(t, m, PF), 1) // low byte 0: even number of ones
	eq(t, "AF", flag(t, m, AF), 1) // carry out of bit 3

	m.GPR[AX] = 0x7fffffffffffffff
	run(t, m, "ADDQ $1, AX")
	eq(t, "OF", flag(t, m, OF), 1)
	eq(t, "SF", flag(t, m, SF), 1)
	eq(t, "CF", flag(t, m, CF), 0)

	m.GPR[AX] = 1
	run(t, m, "SUBQ $2, AX")
	eq(t, "AX", m.GPR[AX], ^uint64(0))
	eq(t, "CF", flag(t, m, CF), 1)
	eq(t, "SF", flag(t, m, SF), 1)

	// CMP keeps Intel's order: flags of AX − 5. −1 < 5 signed, not unsigned.
	m.GPR[AX] = ^uint64(0)
	run(t, m, "CMPQ AX, $5")
	c, _ := m.cond("LT")
	eq(t, "LT", c, 1)
	c, _ = m.cond("CS")
	eq(t, "CS", c, 0)
	c, _ = m.cond("HI")
	eq(t, "HI", c, 1)

	// ADC/SBB use the carry.
	m.GPR[CX] = 5
	m.GPR[AX] = 3
	run(t, m, "CMPL AX, $4", "ADCQ $0, CX") // 3 < 4: CF = 1
	eq(t, "CX", m.GPR[CX], 6)
	run(t, m, "CMPL AX, $3", "ADCQ $0, CX") // 3 = 3: CF = 0
	eq(t, "CX", m.GPR[CX], 6)
	m.GPR[AX] = 0
	run(t, m, "CMPQ AX, $1", "SBBQ AX, AX")
	eq(t, "SBB", m.GPR[AX], ^uint64(0))

	// INC keeps CF.
	run(t, m, "CMPQ AX, $0") // AX = −1 ≥ 0 unsigned: CF = 0
	m.GPR[DX] = ^uint64(0)
	run(t, m, "MOVQ $1, BX", "CMPQ BX, $2", "INCQ DX") // CF = 1 from CMP, INC wraps DX to 0
	eq(t, "CF after INC", flag(t, m, CF), 1)
	eq(t, "ZF after INC", flag(t, m, ZF), 1)
	eq(t, "DX", m.GPR[DX], 0)

	m.GPR[AX] = 5
	run(t, m, "NEGQ AX")
	eq(t, "NEG", m.GPR[AX], ^uint64(4))
	eq(t, "CF", flag(t, m, CF), 1)
	m.GPR[AX] = 0
	run(t, m, "NEGQ AX")
	eq(t, "CF of NEG 0", flag(t, m, CF), 0)

	m.GPR[AX], m.GPR[BX] = 0x100, 3
	run(t, m, "LEAQ 8(AX)(BX*4), CX")
	eq(t, "LEA", m.GPR[CX], 0x114)

	m.GPR[AX], m.GPR[BX], m.GPR[CX] = 7, 0xfedcba9876543210, 1
	run(t, m, "NEGQ CX") // CF = 1
	run(t, m, "XCHGQ AX, BX")
	eq(t, "XCHG AX", m.GPR[AX], 0xfedcba9876543210)
	eq(t, "XCHG BX", m.GPR[BX], 7)
	run(t, m, "XCHGQ BX, BX")
	eq(t, "XCHG BX, BX", m.GPR[BX], 7)
	eq(t, "CF kept by XCHG", flag(t, m, CF), 1)
}

func TestShiftsAndRotates(t *testing.T) {
	m := newM(t)
	m.GPR[AX] = 0x8000000000000001
	run(t, m, "ROLQ $1, AX")
	eq(t, "ROL", m.GPR[AX], 3)
	eq(t, "CF", flag(t, m, CF), 1)
	m.GPR[AX] = 1
	run(t, m, "RORQ $4, AX")
	eq(t, "ROR", m.GPR[AX], 0x1000000000000000)
	m.GPR[AX] = 0x1f00000000000001
	run(t, m, "SHLQ $4, AX")
	eq(t, "SHL", m.GPR[AX], 0xf000000000000010)
	eq(t, "CF", flag(t, m, CF), 1) // bit 60 of the source
	if _, err := m.Flag(OF); err == nil {
		t.Error("OF after a 4-bit shift should be undefined")
	}
	m.GPR[AX] = 0xffffffff80000000
	run(t, m, "SARL $4, AX")
	eq(t, "SARL", m.GPR[AX], 0xf8000000)
	m.GPR[AX], m.GPR[CX] = 0xffffffff00000010, 3
	run(t, m, "SHRL CX, AX")
	eq(t, "SHRL CL", m.GPR[AX], 2)
	m.GPR[AX] = 0x80
	run(t, m, "SHRQ $8, AX")
	eq(t, "SHR to 0", m.GPR[AX], 0)
	eq(t, "ZF", flag(t, m, ZF), 1)
	eq(t, "CF", flag(t, m, CF), 1) // bit 7 shifted out last
}

func TestMultiply(t *testing.T) {
	m := newM(t)
	m.GPR[BX] = 5
	run(t, m, "IMUL3Q $3, BX, AX")
	eq(t, "IMUL3Q", m.GPR[AX], 15)
	eq(t, "CF", flag(t, m, CF), 0)
	m.GPR[BX] = 0x4000000000000000
	run(t, m, "IMUL3Q $3, BX, AX")
	eq(t, "IMUL3Q overflow CF", flag(t, m, CF), 1)
	m.GPR[AX], m.GPR[BX] = ^uint64(2), 4
	run(t, m, "IMULQ BX, AX")
	eq(t, "IMULQ", m.GPR[AX], ^uint64(11))
	eq(t, "OF", flag(t, m, OF), 0)
	m.GPR[AX] = 0x7fffffff
	run(t, m, "IMULL AX, AX")
	eq(t, "IMULL", m.GPR[AX], 1) // 0x3fffffff00000001 truncated
	eq(t, "OF", flag(t, m, OF), 1)
	m.GPR[AX], m.GPR[BX] = ^uint64(0), 2
	run(t, m, "MULQ BX")
	eq(t, "MUL lo", m.GPR[AX], 0xfffffffffffffffe)
	eq(t, "MUL hi", m.GPR[DX], 1)
	eq(t, "CF", flag(t, m, CF), 1)
	if _, err := m.Flag(ZF); err == nil {
		t.Error("ZF after MUL should be undefined")
	}
	m.GPR[AX] = 0xff00ff
	run(t, m, "POPCNTQ AX, BX")
	eq(t, "POPCNT", m.GPR[BX], 16)
	eq(t, "ZF", flag(t, m, ZF), 0)
}

// ANDN and RORX: three-operand forms, the destination last in Go's order.
func TestBMI(t *testing.T) {
	m := newM(t)
	m.GPR[AX], m.GPR[BX], m.GPR[CX] = 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 7
	run(t, m, "SUBQ CX, CX") // CF = 0, ZF = 1
	run(t, m, "ANDNQ AX, BX, CX")
	eq(t, "ANDN", m.GPR[CX], 0xf000f000f000f000) // ¬BX ∧ AX
	eq(t, "ANDN keeps its sources", m.GPR[AX]^m.GPR[BX], 0xf0f0f0f0f0f0f0f0)
	eq(t, "SF", flag(t, m, SF), 1)
	eq(t, "ZF", flag(t, m, ZF), 0)
	eq(t, "CF", flag(t, m, CF), 0)
	eq(t, "OF", flag(t, m, OF), 0)
	if _, err := m.Flag(PF); err == nil {
		t.Error("PF after ANDN should be undefined")
	}
	run(t, m, "ANDNQ AX, AX, DX")
	eq(t, "ANDN of itself", m.GPR[DX], 0)
	eq(t, "ZF", flag(t, m, ZF), 1)
	m.GPR[AX] = 0x8000000000000001
	run(t, m, "RORXQ $1, AX, BX")
	eq(t, "RORX", m.GPR[BX], 0xc000000000000000)
	eq(t, "RORX keeps its source", m.GPR[AX], 0x8000000000000001)
	eq(t, "RORX keeps ZF", flag(t, m, ZF), 1)
	run(t, m, "RORXQ $0, AX, BX")
	eq(t, "RORX by 0", m.GPR[BX], 0x8000000000000001)
	run(t, m, "RORXQ $63, AX, BX")
	eq(t, "RORX by 63", m.GPR[BX], 3)
	run(t, m, "RORXQ $64, AX, BX") // the count is imm8 AND 3FH
	eq(t, "RORX by 64", m.GPR[BX], 0x8000000000000001)
}

func TestMovesAndConditions(t *testing.T) {
	m := newM(t)
	m.GPR[AX] = 0x123456789abcdef0
	run(t, m, "MOVL $-1, AX")
	eq(t, "MOVL zero-extends", m.GPR[AX], 0xffffffff)
	m.GPR[AX] = 0xffff
	run(t, m, "MOVB $0x12, AX")
	eq(t, "MOVB merges", m.GPR[AX], 0xff12)
	m.GPR[DI] = memBase
	run(t, m, "MOVQ $0x8899aabbccddeeff, AX", "MOVQ AX, 8(DI)", "MOVBQZX 9(DI), BX", "MOVWLZX 8(DI), CX", "MOVLQZX 12(DI), DX")
	eq(t, "MOVBQZX", m.GPR[BX], 0xee)
	eq(t, "MOVWLZX", m.GPR[CX], 0xeeff)
	eq(t, "MOVLQZX", m.GPR[DX], 0x8899aabb)
	m.GPR[AX], m.GPR[BX] = 1, 2
	run(t, m, "CMPQ AX, BX", "CMOVQCS BX, AX") // 1 < 2: move
	eq(t, "CMOVQCS taken", m.GPR[AX], 2)
	m.GPR[AX] = 0xffffffff00000001
	run(t, m, "CMPQ BX, $1", "CMOVLCS BX, AX") // 2 ≥ 1: no move, still zero-extends
	eq(t, "CMOVLCS not taken", m.GPR[AX], 1)
	m.GPR[CX] = 0xff00
	run(t, m, "CMPQ AX, $2", "SETCS CL")
	eq(t, "SETCS", m.GPR[CX], 0xff01)
	m.GPR[11] = 0x1234
	run(t, m, "CMPQ AX, $2", "SETCC R11B") // carry set: 0
	eq(t, "SETCC", m.GPR[11], 0x1200)
	run(t, m, "CMPQ AX, $0", "SETCC R11B") // no carry: 1
	eq(t, "SETCC", m.GPR[11], 0x1201)
	m.GPR[SI] = 0xffff_ffff_ffff_ff00
	run(t, m, "CMPQ AX, $2", "SETCS SIB")
	eq(t, "SETCS SIB", m.GPR[SI], 0xffff_ffff_ffff_ff01)
	run(t, m, "XORQ DX, DX")
	eq(t, "XOR zero", m.GPR[DX], 0)
	eq(t, "ZF", flag(t, m, ZF), 1)
	if _, err := m.Flag(AF); err == nil {
		t.Error("AF after XOR should be undefined")
	}
}

func TestBranches(t *testing.T) {
	src := "TEXT ·B(SB), NOSPLIT, $0-0\n\tMOVQ $3, AX\nloop:\n\tDECQ AX\n\tJNE loop\n\tMOVQ $7, BX\n\tRET\n"
	f, err := ParseFile("b.s", src)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMachine[uint64](Conc{}, 0)
	m.Start(f.Routines[0])
	if err := m.Run(100); err != nil {
		t.Fatal(err)
	}
	eq(t, "AX", m.GPR[AX], 0)
	eq(t, "BX", m.GPR[BX], 7)
	eq(t, "steps", uint64(m.Steps), 1+3*2+2)
}

func setY(m *Machine[uint64], r int, d [8]uint32) {
	for i := 0; i < 4; i++ {
		m.Vec[r][i] = uint64(d[2*i]) | uint64(d[2*i+1])<<32
	}
}

func getY(m *Machine[uint64], r int) [8]uint32 {
	var d [8]uint32
	for i := 0; i < 8; i++ {
		d[i] = uint32(m.Vec[r][i/2] >> (32 * (i % 2)))
	}
	return d
}

func setBytes(m *Machine[uint64], r int, b [32]byte) {
	for i := 0; i < 4; i++ {
		var w uint64
		for j := 0; j < 8; j++ {
			w |= uint64(b[8*i+j]) << (8 * j)
		}
		m.Vec[r][i] = w
	}
}

func getBytes(m *Machine[uint64], r int) [32]byte {
	var b [32]byte
	for i := range b {
		b[i] = byte(m.Vec[r][i/8] >> (8 * (i % 8)))
	}
	return b
}

func eqD(t *testing.T, what string, got, want [8]uint32) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %x, want %x", what, got, want)
	}
}

func TestVectorSelects(t *testing.T) {
	m := newM(t)
	var src, ctl, want [32]byte
	for i := range src {
		src[i] = byte(i)
		ctl[i] = byte(15 - i%16) // reverse each 128-bit lane
		want[i] = byte(i&^15 + 15 - i%16)
	}
	ctl[3], want[3] = 0x80, 0 // bit 7 set: zero
	setBytes(m, 0, src)
	setBytes(m, 1, ctl)
	run(t, m, "VPSHUFB Y1, Y0, Y2")
	if got := getBytes(m, 2); got != want {
		t.Errorf("VPSHUFB = %x, want %x", got, want)
	}

	setY(m, 0, [8]uint32{10, 11, 12, 13, 14, 15, 16, 17})
	setY(m, 1, [8]uint32{7, 6, 5, 4, 3, 2, 1, 8}) // 8 selects 8 & 7 = 0
	run(t, m, "VPERMD Y0, Y1, Y2")                // Go: table, indices, dst
	eqD(t, "VPERMD", getY(m, 2), [8]uint32{17, 16, 15, 14, 13, 12, 11, 10})

	run(t, m, "VPSHUFD $0x1b, Y0, Y3")
	eqD(t, "VPSHUFD", getY(m, 3), [8]uint32{13, 12, 11, 10, 17, 16, 15, 14})

	run(t, m, "VPBLENDD $0xaa, Y1, Y0, Y3") // odd dwords from Y1
	eqD(t, "VPBLENDD", getY(m, 3), [8]uint32{10, 6, 12, 4, 14, 2, 16, 8})

	run(t, m, "VPERM2I128 $0x31, Y1, Y0, Y3") // low: Y0 high; high: Y1 high
	eqD(t, "VPERM2I128", getY(m, 3), [8]uint32{14, 15, 16, 17, 3, 2, 1, 8})

	run(t, m, "VPUNPCKLQDQ Y1, Y0, Y3")
	eqD(t, "VPUNPCKLQDQ", getY(m, 3), [8]uint32{10, 11, 7, 6, 14, 15, 3, 2})
	run(t, m, "VPUNPCKHQDQ Y1, Y0, Y3")
	eqD(t, "VPUNPCKHQDQ", getY(m, 3), [8]uint32{12, 13, 5, 4, 16, 17, 1, 8})
	run(t, m, "VPUNPCKLDQ Y1, Y0, Y3")
	eqD(t, "VPUNPCKLDQ", getY(m, 3), [8]uint32{10, 7, 11, 6, 14, 3, 15, 2})
	run(t, m, "VPUNPCKHDQ Y1, Y0, Y3")
	eqD(t, "VPUNPCKHDQ", getY(m, 3), [8]uint32{12, 5, 13, 4, 16, 1, 17, 8})

	run(t, m, "VINSERTI128 $1, X1, Y0, Y3")
	eqD(t, "VINSERTI128", getY(m, 3), [8]uint32{10, 11, 12, 13, 7, 6, 5, 4})
	run(t, m, "VEXTRACTI128 $1, Y0, X3")
	eqD(t, "VEXTRACTI128 zeroes the upper half", getY(m, 3), [8]uint32{14, 15, 16, 17, 0, 0, 0, 0})
	run(t, m, "VPBROADCASTD X1, Y3")
	eqD(t, "VPBROADCASTD", getY(m, 3), [8]uint32{7, 7, 7, 7, 7, 7, 7, 7})
	run(t, m, "VPERMQ $0x4e, Y0, Y3") // swap qword pairs: 2,3,0,1
	eqD(t, "VPERMQ", getY(m, 3), [8]uint32{14, 15, 16, 17, 10, 11, 12, 13})

	var mask, a, b, bl [32]byte
	for i := range mask {
		a[i], b[i] = 0xaa, 0x55
		bl[i] = 0xaa
		if i%3 == 0 {
			mask[i] = 0x80
			bl[i] = 0x55
		}
	}
	mask[1] = 0x7f // bit 7 clear: keep src1
	setBytes(m, 4, mask)
	setBytes(m, 5, b) // src2
	setBytes(m, 6, a) // src1
	run(t, m, "VPBLENDVB Y4, Y5, Y6, Y7")
	if got := getBytes(m, 7); got != bl {
		t.Errorf("VPBLENDVB = %x, want %x", got, bl)
	}
	run(t, m, "VPMOVMSKB Y4, AX")
	eq(t, "VPMOVMSKB", m.GPR[AX], 0b01001001001001001001001001001001)
	setY(m, 4, [8]uint32{0x80000000, 1, 0xffffffff, 0, 0, 0, 0, 0x80000000})
	run(t, m, "VMOVMSKPS Y4, AX")
	eq(t, "VMOVMSKPS", m.GPR[AX], 0b10000101)
}

func TestVectorArithmetic(t *testing.T) {
	m := newM(t)
	neg := func(x int32) uint32 { return uint32(x) }
	setY(m, 0, [8]uint32{1, neg(-1), 5, 0, 0xffffffff, 7, 100, neg(-7)})
	setY(m, 1, [8]uint32{0, 0, 5, neg(-3), 1, 9, 50, 3})
	run(t, m, "VPCMPGTD Y1, Y0, Y2") // Y0 > Y1 signed
	eqD(t, "VPCMPGTD", getY(m, 2), [8]uint32{^uint32(0), 0, 0, ^uint32(0), 0, 0, ^uint32(0), 0})
	run(t, m, "VPCMPEQD Y1, Y0, Y2")
	eqD(t, "VPCMPEQD", getY(m, 2), [8]uint32{0, 0, ^uint32(0), 0, 0, 0, 0, 0})
	run(t, m, "VPADDD Y1, Y0, Y2")
	eqD(t, "VPADDD", getY(m, 2), [8]uint32{1, neg(-1), 10, neg(-3), 0, 16, 150, neg(-4)})
	run(t, m, "VPSUBD Y1, Y0, Y2") // Y0 − Y1
	eqD(t, "VPSUBD", getY(m, 2), [8]uint32{1, neg(-1), 0, 3, 0xfffffffe, neg(-2), 50, neg(-10)})
	run(t, m, "VPMINUD Y1, Y0, Y2")
	eqD(t, "VPMINUD", getY(m, 2), [8]uint32{0, 0, 5, 0, 1, 7, 50, 3})
	run(t, m, "VPMAXUD Y1, Y0, Y2")
	eqD(t, "VPMAXUD", getY(m, 2), [8]uint32{1, neg(-1), 5, neg(-3), 0xffffffff, 9, 100, neg(-7)})
	run(t, m, "VPMINSD Y1, Y0, Y2")
	eqD(t, "VPMINSD", getY(m, 2), [8]uint32{0, neg(-1), 5, neg(-3), 0xffffffff, 7, 50, neg(-7)})
	run(t, m, "VPABSD Y0, Y2")
	eqD(t, "VPABSD", getY(m, 2), [8]uint32{1, 1, 5, 0, 1, 7, 100, 7})
	run(t, m, "VPMULLD Y1, Y0, Y2")
	eqD(t, "VPMULLD", getY(m, 2), [8]uint32{0, 0, 25, 0, 0xffffffff, 63, 5000, neg(-21)})
	run(t, m, "VPMULUDQ Y1, Y0, Y2") // even dwords, unsigned 64-bit products
	eq(t, "VPMULUDQ[0]", m.Vec[2][0], 0)
	eq(t, "VPMULUDQ[1]", m.Vec[2][1], 25)
	eq(t, "VPMULUDQ[2]", m.Vec[2][2], 0xffffffff)
	eq(t, "VPMULUDQ[3]", m.Vec[2][3], 5000)
	setY(m, 3, [8]uint32{neg(-2), 0, 3, 0, 0, 0, 0, 0})
	run(t, m, "VPMULDQ Y3, Y3, Y2") // signed: (−2)² = 4
	eq(t, "VPMULDQ[0]", m.Vec[2][0], 4)
	eq(t, "VPMULDQ[1]", m.Vec[2][1], 9)
	run(t, m, "VPSRAD $4, Y0, Y2")
	eqD(t, "VPSRAD", getY(m, 2), [8]uint32{0, ^uint32(0), 0, 0, ^uint32(0), 0, 6, ^uint32(0)})
	run(t, m, "VPSLLD $31, Y1, Y2")
	eqD(t, "VPSLLD", getY(m, 2), [8]uint32{0, 0, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0, 0x80000000})
	setY(m, 4, [8]uint32{1, 32, 0, 31, 4, 33, 1, 2})
	run(t, m, "VPSLLVD Y4, Y1, Y2") // Go: counts, src, dst
	eqD(t, "VPSLLVD", getY(m, 2), [8]uint32{0, 0, 5, 0x80000000, 16, 0, 100, 12})
	run(t, m, "VPSRLVD Y4, Y0, Y2")
	eqD(t, "VPSRLVD", getY(m, 2), [8]uint32{0, 0, 5, 0, 0x0fffffff, 0, 50, neg(-7) >> 2})
	m.Vec[5] = [8]uint64{0x8000000000000001, 2, 3, 4}
	run(t, m, "VPSLLQ $1, Y5, Y6", "VPSRLQ $63, Y5, Y7")
	eq(t, "VPSLLQ", m.Vec[6][0], 2)
	eq(t, "VPSRLQ", m.Vec[7][0], 1)
	m.Vec[8] = [8]uint64{64, 0, 0, 0}
	run(t, m, "VPSLLQ X8, Y5, Y6") // count ≥ 64: zero
	eq(t, "VPSLLQ by 64", m.Vec[6][0]|m.Vec[6][3], 0)
	run(t, m, "VPADDQ Y5, Y5, Y6", "VPSUBQ Y5, Y6, Y7")
	eq(t, "VPADDQ", m.Vec[6][0], 2)
	eq(t, "VPSUBQ", m.Vec[7][3], 4)
	m.Vec[9] = [8]uint64{0xff00, 0xf0f0, 1, 1}
	m.Vec[10] = [8]uint64{0x0ff0, 0xff00, 3, 0}
	run(t, m, "VPANDN Y10, Y9, Y11", "VPAND Y10, Y9, Y12", "VPOR Y10, Y9, Y13") // ¬Y9 ∧ Y10
	eq(t, "VPANDN", m.Vec[11][0], 0x00f0)
	eq(t, "VPANDN", m.Vec[11][1], 0x0f00)
	eq(t, "VPAND", m.Vec[12][0], 0x0f00)
	eq(t, "VPOR", m.Vec[13][2], 3)
}

// The legacy-SSE2 instructions compute on the low 128 bits as their VEX
// twins do, and keep bits 255:128 of the destination.
func TestLegacySSE2(t *testing.T) {
	m := newM(t)
	x1 := [8]uint64{0xfffffffe_00000003, 0x80000000_7fffffff, 0xa, 0xb}
	x2 := [8]uint64{0x00000005_00000002, 0x00000001_00000001, 0xc, 0xd}
	for _, tc := range []struct {
		op   string
		want [2]uint64
	}{
		{"PADDL X1, X2", [2]uint64{0x00000003_00000005, 0x80000001_80000000}},
		{"PSUBL X1, X2", [2]uint64{0x00000007_ffffffff, 0x80000001_80000002}},
		{"PADDQ X1, X2", [2]uint64{0x00000003_00000005, 0x80000001_80000000}},
		{"PAND X1, X2", [2]uint64{0x00000004_00000002, 0x00000000_00000001}},
		{"POR X1, X2", [2]uint64{0xffffffff_00000003, 0x80000001_7fffffff}},
		{"PMULULQ X1, X2", [2]uint64{6, 0x7fffffff}},
		{"PSHUFL $0x1b, X1, X2", [2]uint64{0x7fffffff_80000000, 0x00000003_fffffffe}},
		{"PSRLQ $32, X2", [2]uint64{5, 1}},
		{"PSLLQ $32, X2", [2]uint64{0x00000002_00000000, 0x00000001_00000000}},
		{"PSRAL $1, X1", [2]uint64{0xffffffff_00000001, 0xc0000000_3fffffff}},
		{"PSLLL $4, X1", [2]uint64{0xffffffe0_00000030, 0x00000000_fffffff0}},
		{"PUNPCKLLQ X1, X2", [2]uint64{0x00000003_00000002, 0xfffffffe_00000005}},
		{"PUNPCKHLQ X1, X2", [2]uint64{0x7fffffff_00000001, 0x80000000_00000001}},
		{"PUNPCKLQDQ X1, X2", [2]uint64{0x00000005_00000002, 0xfffffffe_00000003}},
		{"PUNPCKHQDQ X1, X2", [2]uint64{0x00000001_00000001, 0x80000000_7fffffff}},
	} {
		m.Vec[1], m.Vec[2] = x1, x2
		run(t, m, tc.op)
		dst := 2
		if tc.op[:5] == "PSRAL" || tc.op[:5] == "PSLLL" {
			dst = 1
		}
		want := [8]uint64{tc.want[0], tc.want[1], 0xc, 0xd}
		if dst == 1 {
			want[2], want[3] = 0xa, 0xb
		}
		if m.Vec[dst] != want {
			t.Errorf("%s = %x, want %x", tc.op, m.Vec[dst], want)
		}
	}
}

func TestWidthsAndMemory(t *testing.T) {
	m := newM(t)
	m.Vec[0] = [8]uint64{1, 2, 3, 4}
	m.Vec[1] = [8]uint64{5, 6, 7, 8}
	run(t, m, "PXOR X1, X0") // legacy SSE: bits 255:128 kept
	if m.Vec[0] != [8]uint64{4, 4, 3, 4} {
		t.Errorf("PXOR = %x", m.Vec[0])
	}
	run(t, m, "VPXOR X1, X0, X2") // VEX.128: bits 255:128 zeroed
	if m.Vec[2] != [8]uint64{1, 2, 0, 0} {
		t.Errorf("VPXOR X = %x", m.Vec[2])
	}
	m.GPR[AX] = 0x77
	run(t, m, "MOVQ AX, X1") // bits 127:64 zeroed, 255:128 kept
	if m.Vec[1] != [8]uint64{0x77, 0, 7, 8} {
		t.Errorf("MOVQ AX, X1 = %x", m.Vec[1])
	}
	run(t, m, "VZEROUPPER")
	if m.Vec[1] != [8]uint64{0x77, 0, 0, 0} {
		t.Errorf("VZEROUPPER = %x", m.Vec[1])
	}
	m.GPR[DI] = memBase
	m.Vec[3] = [8]uint64{11, 12, 13, 14}
	run(t, m, "VMOVDQU Y3, 32(DI)", "VMOVDQU 40(DI), Y4", "MOVOU 32(DI), X5", "MOVQ 48(DI), X6")
	if m.Vec[4][0] != 12 || m.Vec[4][2] != 14 {
		t.Errorf("VMOVDQU unaligned load = %x", m.Vec[4])
	}
	if m.Vec[5][0] != 11 || m.Vec[5][1] != 12 {
		t.Errorf("MOVOU = %x", m.Vec[5])
	}
	eq(t, "MOVQ m, X", m.Vec[6][0], 13)
	run(t, m, "STMXCSR (DI)", "MOVL (DI), AX")
	eq(t, "STMXCSR", m.GPR[AX], 0x1f80)
	run(t, m, "MOVL $0x1fbf, 4(DI)", "LDMXCSR 4(DI)")
	eq(t, "LDMXCSR", m.MXCSR, 0x1fbf)
	in, _ := ParseInsn("LDMXCSR 8(DI)")
	run(t, m, "MOVL $0x10000, 8(DI)")
	if err := m.Exec(in); err == nil {
		t.Error("LDMXCSR with reserved bits set should fail (#GP)")
	}
	// Out of bounds.
	in, _ = ParseInsn("MOVQ AX, 252(DI)")
	if err := m.Exec(in); err == nil || !strings.Contains(err.Error(), "outside every region") {
		t.Errorf("store across the end: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"TEXT ·F(SB), $0-0\n\tBSWAPQ AX\n\tRET\n":        "f.s:2: unknown instruction BSWAPQ",
		"TEXT ·F(SB), $0-0\n\tVPXOR Y1, AX, Y3\n\tRET\n": "f.s:2: VPXOR: operand form",
		"TEXT ·F(SB), $0-0\n\tJMP nowhere\n\tRET\n":      "f.s:2: undefined label nowhere",
		"TEXT ·F(SB), $0-0\n\tMOVQ (AX)(SP*2), BX\n":     "f.s:2:",
		"\tMOVQ AX, BX\n":   "f.s:1: instruction outside TEXT",
		"TEXT ·F(SB), $0\n": "lacks -args",
		"DATA t<>+0(SB)/8, $1\nGLOBL t<>(SB), NOPTR, $8\n":   "not RODATA",
		"TEXT ·F(SB), $0-0\n\tMOVQ $x(SB), AX\n":             "f.s:2:",
		"TEXT ·F(SB), $0-0\n\tMOVQ a+0(FP)(AX*1), AX\n":      "index on FP",
		"TEXT ·F(SB), $0-0\n\tADDQ AX\n":                     "operand form",
		"TEXT ·F(SB), $0-0\nl:\nl:\n\tRET\n":                 "duplicate label",
		"DATA t<>+0(SB)/8, $1\nDATA t<>+4(SB)/4, $1\n":       "set twice",
		"TEXT ·F(SB), $0-0\n\tVPSHUFB Y1, Y2, Y3, Y4\n":      "operand form",
		"TEXT ·F(SB), $0-0\n\tMOVQ 8(BX)(CX*3), AX\n\tRET\n": "scale",
		// Byte registers are SETcc's operands only; AH–BH are not modelled.
		"TEXT ·F(SB), $0-0\n\tMOVQ AL, BX\n":   "operand form",
		"TEXT ·F(SB), $0-0\n\tSETCS CX\n":      "operand form",
		"TEXT ·F(SB), $0-0\n\tSETCS AH\n":      "operand",
		"TEXT ·F(SB), $0-0\n\tMOVQ (AL), BX\n": "base",
	}
	for src, want := range cases {
		_, err := ParseFile("f.s", src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", src, err, want)
		}
	}
}

func TestParseForms(t *testing.T) {
	src := `#include "textflag.h"

DATA tab<>+0(SB)/8, $0x0102030405060708
DATA tab<>+8(SB)/4, $-1
GLOBL tab<>(SB), RODATA|NOPTR, $16

// func F(a *[4]uint64, n int) bool
// Requires: AVX, AVX2
TEXT ·F(SB), NOSPLIT, $24-17
	MOVQ a+0(FP), DI
	MOVQ tab<>+8(SB), AX
	MOVQ -8(DI)(AX*8), BX
	VPBROADCASTQ tab<>+0(SB), Y1
	MOVB $0x01, ret+16(FP)
done:
	RET
`
	f, err := ParseFile("f.s", src)
	if err != nil {
		t.Fatal(err)
	}
	r := f.Routine("F")
	if r.Frame != 24 || r.ArgSize != 17 || r.Flags != "NOSPLIT" || strings.Join(r.Requires, ",") != "AVX,AVX2" {
		t.Errorf("TEXT = %+v", r)
	}
	if r.Labels["done"] != 5 {
		t.Errorf("label done at %d", r.Labels["done"])
	}
	d := f.Data["tab"]
	if d.Size != 16 || d.Bytes[0] != 8 || d.Bytes[7] != 1 || d.Bytes[11] != 0xff || d.Bytes[12] != 0 {
		t.Errorf("DATA = %+v", d)
	}
	mem := r.Insns[2].Args[0].Mem
	if mem.Base != DI || mem.Index != AX || mem.Scale != 8 || mem.Disp != -8 {
		t.Errorf("memory operand = %+v", mem)
	}
	if in := r.Insns[0].Args[0].Mem; in.Pseudo != "FP" || in.Name != "a" {
		t.Errorf("FP operand = %+v", in)
	}
	if r.Insns[3].Feature() != "AVX2" || r.Insns[0].Feature() != "" {
		t.Errorf("features %q %q", r.Insns[3].Feature(), r.Insns[0].Feature())
	}
}

// Every modelled mnemonic has an SDM citation and parses.
func TestInfoTable(t *testing.T) {
	for _, op := range Mnemonics() {
		inf, _ := Lookup(op)
		if !strings.HasPrefix(inf.SDM, "SDM Vol. 2") {
			t.Errorf("%s: citation %q", op, inf.SDM)
		}
	}
}
