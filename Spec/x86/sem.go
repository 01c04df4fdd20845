package x86

import "fmt"

// This file holds the semantics of every modelled instruction, in Go
// operand order (sources first, destination last). Each case cites its
// SDM entry through infos (isa.go); comments here say what is subtle.

// ---- operand access ----

func (m *Machine[V]) readInt(in *Insn, o Operand, w uint) (V, error) {
	var v V
	switch o.Kind {
	case KReg:
		r, err := gprOf(in, o, w)
		if err != nil {
			return v, err
		}
		v = m.mask(m.GPR[r], w)
		m.noteRead(v)
		return v, nil
	case KImm:
		// Immediates are sign-extended to the operand size (SDM Vol. 1, 3.7.1);
		// Go already holds them as int64.
		v = m.mask(m.D.Const(uint64(o.Imm)), w)
		return v, nil
	case KMem:
		a, err := m.EffAddr(in, o.Mem)
		if err != nil {
			return v, err
		}
		ws, err := m.Load(in, a, int(w/8))
		if err != nil {
			return v, err
		}
		return ws[0], nil
	}
	return v, fmt.Errorf("%s: operand %s not an integer source", in, o.Text)
}

// gprOf returns the general register an integer register operand of width
// w accesses: itself, or for a byte register (8 bits only) the register
// whose low byte it is.
func gprOf(in *Insn, o Operand, w uint) (Reg, error) {
	switch {
	case o.Reg.IsGPR():
		return o.Reg, nil
	case o.Reg.IsByte() && w == 8:
		return o.Reg.GPR(), nil
	}
	return NoReg, fmt.Errorf("%s: %s is not a general register of %d bits", in, o.Text, w)
}

// writeInt writes an integer destination of width w. A 32-bit register
// write zero-extends to 64 bits; 8- and 16-bit writes keep the upper bits
// (SDM Vol. 1, 3.4.1.1).
func (m *Machine[V]) writeInt(in *Insn, o Operand, w uint, v V) error {
	d := m.D
	switch o.Kind {
	case KReg:
		r, err := gprOf(in, o, w)
		if err != nil {
			return err
		}
		switch w {
		case 64:
			m.GPR[r] = v
		case 32:
			m.GPR[r] = m.mask(v, 32)
		default:
			keep := d.Const(^(uint64(1)<<w - 1))
			m.GPR[r] = d.Or(d.And(m.GPR[r], keep), m.mask(v, w))
		}
		return nil
	case KMem:
		a, err := m.EffAddr(in, o.Mem)
		if err != nil {
			return err
		}
		return m.Store(in, a, int(w/8), []V{m.mask(v, w)})
	}
	return fmt.Errorf("%s: operand %s not an integer destination", in, o.Text)
}

// readVec reads a source of a VEX or EVEX instruction: an X, Y, Z (EVEX
// only) or memory operand of n bytes (8, 16, 32 or 64) as eight words;
// words beyond n are zero.
func (m *Machine[V]) readVec(in *Insn, o Operand, n int) ([8]V, error) {
	if o.Kind == KReg && o.Reg.IsZ() && !in.evex {
		return [8]V{}, fmt.Errorf("%s: %s is a zmm register", in, o.Text)
	}
	return m.readVec8(in, o, n)
}

// readVec8 reads an X, Y, Z or memory operand of n bytes (4, 8, 16, 32 or
// 64) as eight words; words beyond n are zero.
func (m *Machine[V]) readVec8(in *Insn, o Operand, n int) ([8]V, error) {
	var v [8]V
	z := m.D.Const(0)
	for i := range v {
		v[i] = z
	}
	switch o.Kind {
	case KReg:
		if !o.Reg.IsX() && !o.Reg.IsY() && !o.Reg.IsZ() {
			return v, fmt.Errorf("%s: %s is not a vector register", in, o.Text)
		}
		r := m.Vec[o.Reg.Vec()]
		for i := 0; i < n/8; i++ {
			v[i] = r[i]
			m.noteRead(v[i])
		}
		if n == 4 {
			v[0] = m.mask(r[0], 32)
			m.noteRead(v[0])
		}
		return v, nil
	case KMem:
		a, err := m.EffAddr(in, o.Mem)
		if err != nil {
			return v, err
		}
		ws, err := m.Load(in, a, n)
		if err != nil {
			return v, err
		}
		copy(v[:], ws)
		return v, nil
	}
	return v, fmt.Errorf("%s: operand %s not a vector source", in, o.Text)
}

// width returns 64 for a Z operand, 32 for a Y operand, else 16.
func vwidth(o Operand) int {
	switch {
	case o.Kind == KReg && o.Reg.IsZ():
		return 64
	case o.Kind == KReg && o.Reg.IsY():
		return 32
	}
	return 16
}

// writeVEX writes a VEX- or EVEX-encoded result: an X destination zeroes
// bits 511:128, a Y destination bits 511:256 (SDM Vol. 1, 15.5: VEX-encoded
// instructions zero bits MAXVL−1:VL of their destination; SDM Vol. 2A,
// 2.7.1 for EVEX), a Z destination (EVEX only) takes all 512; a memory
// destination stores n bytes.
func (m *Machine[V]) writeVEX(in *Insn, o Operand, v [8]V, n int) error {
	if m.legacy {
		return m.writeSSE(in, o, [4]V(v[:4]))
	}
	if o.Kind == KReg && o.Reg.IsZ() && !in.evex {
		return fmt.Errorf("%s: %s is a zmm register", in, o.Text)
	}
	return m.writeVec8(in, o, v, n)
}

// writeVec8 writes a VEX- or EVEX-encoded result of n bytes (16, 32 or 64):
// a register destination's bits 511:8n are zeroed (SDM Vol. 1, 15.5; SDM
// Vol. 2A, 2.7.1 for EVEX), whatever v holds there; a memory destination
// stores n bytes.
func (m *Machine[V]) writeVec8(in *Insn, o Operand, v [8]V, n int) error {
	switch o.Kind {
	case KReg:
		if !o.Reg.IsX() && !o.Reg.IsY() && !o.Reg.IsZ() {
			return fmt.Errorf("%s: %s is not a vector register", in, o.Text)
		}
		if w := vwidth(o); n > w {
			n = w
		}
		z := m.D.Const(0)
		for i := n / 8; i < 8; i++ {
			v[i] = z
		}
		m.Vec[o.Reg.Vec()] = v
		return nil
	case KMem:
		a, err := m.EffAddr(in, o.Mem)
		if err != nil {
			return err
		}
		return m.Store(in, a, n, v[:(n+7)/8])
	}
	return fmt.Errorf("%s: operand %s not a vector destination", in, o.Text)
}

// writeSSE writes a legacy-SSE 128-bit result: bits 511:128 of the
// destination register are unchanged (SDM Vol. 1, 14.1.2 and 15.5).
func (m *Machine[V]) writeSSE(in *Insn, o Operand, v [4]V) error {
	switch o.Kind {
	case KReg:
		if !o.Reg.IsX() {
			return fmt.Errorf("%s: %s is not an X register", in, o.Text)
		}
		r := &m.Vec[o.Reg.Vec()]
		r[0], r[1] = v[0], v[1]
		return nil
	case KMem:
		a, err := m.EffAddr(in, o.Mem)
		if err != nil {
			return err
		}
		return m.Store(in, a, 16, v[:2])
	}
	return fmt.Errorf("%s: operand %s not an SSE destination", in, o.Text)
}

// ---- lane helpers over eight 64-bit words ----

const m32 = 0xffffffff

func (m *Machine[V]) lo32(x V) V { return m.D.And(x, m.D.Const(m32)) }
func (m *Machine[V]) hi32(x V) V { return m.D.Shr(x, 32) }
func (m *Machine[V]) sx32(x V) V { return m.D.Sar(m.D.Shl(x, 32), 32) }
func (m *Machine[V]) pack32(lo, hi V) V {
	return m.D.Or(m.lo32(lo), m.D.Shl(hi, 32))
}

// dword i (0..15) of v, zero-extended.
func (m *Machine[V]) dword(v [8]V, i int) V {
	if i&1 == 0 {
		return m.lo32(v[i/2])
	}
	return m.hi32(v[i/2])
}

// fromDwords packs the first n/4 dwords of ds into words; the words
// beyond n bytes are zero.
func (m *Machine[V]) fromDwords(ds [16]V, n int) [8]V {
	var out [8]V
	for i := range out {
		if i < n/8 {
			out[i] = m.pack32(ds[2*i], ds[2*i+1])
		} else {
			out[i] = m.D.Const(0)
		}
	}
	return out
}

// map32 applies f to each pair of 32-bit lanes (zero-extended inputs; the
// result is truncated to 32 bits).
func (m *Machine[V]) map32(a, b [8]V, n int, f func(x, y V) V) [8]V {
	var ds [16]V
	for i := 0; i < n/4; i++ {
		ds[i] = f(m.dword(a, i), m.dword(b, i))
	}
	return m.fromDwords(ds, n)
}

func (m *Machine[V]) byteOf(v [8]V, i int) V {
	return m.D.And(m.D.Shr(v[i/8], uint(8*(i%8))), m.D.Const(0xff))
}

func (m *Machine[V]) fromBytes(bs [32]V) [8]V {
	var out [8]V
	for w := range out {
		if w < 4 {
			out[w] = m.D.FromBytes(bs[8*w : 8*w+8])
		} else {
			out[w] = m.D.Const(0)
		}
	}
	return out
}

// vec3 reads the two sources of a three-operand VEX instruction (Go order
// src2, src1, dst) and returns them with the operand width.
func (m *Machine[V]) vec3(in *Insn) (src1, src2 [8]V, n int, err error) {
	n = vwidth(in.Args[2])
	if src2, err = m.readVec(in, in.Args[0], n); err != nil {
		return
	}
	src1, err = m.readVec(in, in.Args[1], n)
	return
}

func (m *Machine[V]) imm(in *Insn, i int) (uint64, error) {
	if in.Args[i].Kind != KImm {
		return 0, fmt.Errorf("%s: operand %d must be an immediate", in, i+1)
	}
	return uint64(in.Args[i].Imm), nil
}

// shiftCount returns a concrete vector shift count (immediate or the low
// 64 bits of an X register/memory), or ok=false.
func (m *Machine[V]) vshiftCount(in *Insn) (uint64, V, bool, error) {
	o := in.Args[0]
	if o.Kind == KImm {
		return uint64(o.Imm) & 0xff, m.D.Const(uint64(o.Imm) & 0xff), true, nil
	}
	c, err := m.readVec(in, o, 8)
	if err != nil {
		var z V
		return 0, z, false, err
	}
	cv, ok := m.D.Concrete(c[0])
	return cv, c[0], ok, nil
}

// ---- execution ----

// sseTwins maps each legacy-SSE instruction executed through the VEX
// instruction of the same operation to that instruction. The legacy form
// "OP src, dst" computes dst ← dst op src, as "VOP src, dst, dst" does on
// X registers (the SDM defines both in one entry), and PSHUFL's operands
// are VPSHUFD's; the one difference is the write: the legacy form leaves
// bits 255:128 of the destination unchanged where VEX.128 zeroes them
// (SDM Vol. 1, 14.1.2), which writeVEX does for these (m.legacy).
var sseTwins = map[opcode]opcode{
	oPADDL: oVPADDD, oPSUBL: oVPSUBD, oPADDQ: oVPADDQ, oPAND: oVPAND, oPOR: oVPOR,
	oPSHUFL: oVPSHUFD, oPSRLQ: oVPSRLQ, oPSLLQ: oVPSLLQ, oPSRAL: oVPSRAD, oPSLLL: oVPSLLD,
	oPUNPCKLLQ: oVPUNPCKLDQ, oPUNPCKHLQ: oVPUNPCKHDQ, oPUNPCKLQDQ: oVPUNPCKLQDQ, oPUNPCKHQDQ: oVPUNPCKHQDQ,
}

func (m *Machine[V]) exec(in *Insn) error {
	d := m.D
	a := in.Args
	if tw, ok := sseTwins[in.code]; ok {
		for _, o := range a {
			if o.Kind == KMem {
				return fmt.Errorf("%s: legacy-SSE memory operand not modelled", in)
			}
		}
		args := []Operand{a[0], a[1], a[1]}
		if in.code == oPSHUFL {
			args = a
		}
		m.legacy = true
		err := m.exec(&Insn{Op: infos[tw].Op, code: tw, Args: args, Text: in.Text, Form: in.Form})
		m.legacy = false
		return err
	}
	switch in.code {
	// -- moves --
	case oMOVQ:
		if a[0].Kind == KReg && a[0].Reg.IsX() || a[1].Kind == KReg && a[1].Reg.IsX() {
			return m.movqXMM(in)
		}
		return m.mov(in, 64, 64)
	case oMOVL:
		return m.mov(in, 32, 32)
	case oMOVW:
		return m.mov(in, 16, 16)
	case oMOVB:
		return m.mov(in, 8, 8)
	case oMOVBLZX, oMOVBQZX:
		return m.mov(in, 8, 64)
	case oMOVWLZX, oMOVWQZX:
		return m.mov(in, 16, 64)
	case oMOVLQZX:
		return m.mov(in, 32, 64)

	// -- logic --
	case oXORQ, oXORL, oANDQ, oANDL, oORQ, oORL:
		w := uint(64)
		if in.code == oXORL || in.code == oANDL || in.code == oORL {
			w = 32
		}
		x, err := m.readInt(in, a[0], w)
		if err != nil {
			return err
		}
		y, err := m.readInt(in, a[1], w)
		if err != nil {
			return err
		}
		var r V
		switch in.code {
		case oXORQ, oXORL:
			r = d.Xor(y, x)
			if sameReg(a[0], a[1]) {
				// The zeroing idiom: x ⊕ x = 0 whatever x holds.
				r = d.Const(0)
			}
		case oANDQ, oANDL:
			r = d.And(y, x)
		default:
			r = d.Or(y, x)
		}
		m.logicFlags(r, w)
		return m.writeInt(in, a[1], w, r)
	case oTESTQ, oTESTL:
		w := uint(64)
		if in.code == oTESTL {
			w = 32
		}
		x, err := m.readInt(in, a[0], w)
		if err != nil {
			return err
		}
		y, err := m.readInt(in, a[1], w)
		if err != nil {
			return err
		}
		m.logicFlags(d.And(x, y), w)
		return nil
	case oXCHGQ:
		// XCHG affects no flags (SDM Vol. 2D, XCHG, Flags Affected: None).
		x, err := m.readInt(in, a[0], 64)
		if err != nil {
			return err
		}
		y, err := m.readInt(in, a[1], 64)
		if err != nil {
			return err
		}
		if err := m.writeInt(in, a[0], 64, y); err != nil {
			return err
		}
		return m.writeInt(in, a[1], 64, x)
	case oNOTQ, oNOTL:
		// NOT affects no flags.
		w := uint(64)
		if in.code == oNOTL {
			w = 32
		}
		x, err := m.readInt(in, a[0], w)
		if err != nil {
			return err
		}
		return m.writeInt(in, a[0], w, d.Not(x))

	case oANDNQ:
		// ANDN r64a, r64b, r/m64 (Go: ANDNQ r/m64, r64b, r64a): r64a =
		// ¬r64b ∧ r/m64; SF and ZF from the result, OF and CF cleared, AF
		// and PF undefined (SDM Vol. 2A, ANDN, Flags Affected).
		x, err := m.readInt(in, a[0], 64)
		if err != nil {
			return err
		}
		y, err := m.readInt(in, a[1], 64)
		if err != nil {
			return err
		}
		r := d.And(d.Not(y), x)
		m.logicFlags(r, 64)
		m.undefFlag(PF)
		return m.writeInt(in, a[2], 64, r)
	case oRORXQ:
		// RORX r64, r/m64, imm8 (Go: RORXQ $imm8, r/m64, r64): r64 = r/m64
		// rotated right by imm8 AND 3FH; no flag read or written (SDM Vol.
		// 2B, RORX, Operation and Flags Affected).
		x, err := m.readInt(in, a[1], 64)
		if err != nil {
			return err
		}
		n := uint(a[0].Imm) & 63
		return m.writeInt(in, a[2], 64, d.Rol(x, (64-n)%64))

	// -- shifts and rotates --
	case oSHLQ, oSHRQ, oSARQ, oSHLL, oSHRL, oSARL, oROLQ, oRORQ:
		return m.shift(in)

	// -- add/sub family --
	case oADDQ, oADDL, oSUBQ, oSUBL, oADCQ, oSBBQ, oCMPQ, oCMPL:
		return m.addsub(in)
	case oINCQ, oDECQ, oINCL, oDECL:
		// INC/DEC leave CF unchanged (SDM Vol. 2A, INC/DEC, Flags Affected).
		w := uint(64)
		if in.code == oINCL || in.code == oDECL {
			w = 32
		}
		x, err := m.readInt(in, a[0], w)
		if err != nil {
			return err
		}
		cfState, cfVal := m.fstate[CF], m.fval[CF]
		if cfState == fLazy {
			cfVal = m.lazyFlag(CF)
			cfState = fValue
		}
		one := d.Const(1)
		var r V
		if in.code == oINCQ || in.code == oINCL {
			r = d.Add(x, one)
			m.setThunk(thunk[V]{kind: tkAdd, width: w, a: x, b: one, r: r})
		} else {
			r = d.Sub(x, one)
			m.setThunk(thunk[V]{kind: tkSub, width: w, a: x, b: one, r: r})
		}
		m.fstate[CF], m.fval[CF], m.fsrc[CF] = cfState, cfVal, false
		return m.writeInt(in, a[0], w, r)
	case oNEGQ:
		x, err := m.readInt(in, a[0], 64)
		if err != nil {
			return err
		}
		z := d.Const(0)
		r := d.Sub(z, x)
		// CF is 0 if the source is 0, else 1 = borrow of 0 − x.
		m.setThunk(thunk[V]{kind: tkSub, width: 64, a: z, b: x, r: r})
		return m.writeInt(in, a[0], 64, r)

	case oLEAQ:
		addr, err := m.EffAddr(in, a[0].Mem)
		if err != nil {
			return err
		}
		return m.writeInt(in, a[1], 64, addr)

	case oCMOVQCS, oCMOVQCC, oCMOVQEQ, oCMOVQNE, oCMOVLCS, oCMOVLCC:
		w := uint(64)
		if in.code == oCMOVLCS || in.code == oCMOVLCC {
			w = 32
		}
		c, err := m.cond(in.Op[5:])
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		m.noteRead(c)
		// The source is read (and a memory source loaded) whatever the
		// condition; a 32-bit destination is zero-extended either way.
		src, err := m.readInt(in, a[0], w)
		if err != nil {
			return err
		}
		dst, err := m.readInt(in, a[1], w)
		if err != nil {
			return err
		}
		return m.writeInt(in, a[1], w, d.Ite(c, src, dst))
	case oSETCS, oSETCC:
		c, err := m.cond(in.Op[3:])
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		m.noteRead(c)
		return m.writeInt(in, a[0], 8, c)

	case oIMULQ, oIMULL, oIMUL3Q, oIMUL3L:
		return m.imul(in)
	case oMULQ:
		x, err := m.readInt(in, a[0], 64)
		if err != nil {
			return err
		}
		ax := m.GPR[AX]
		m.noteRead(ax)
		lo, hi := d.Mul(ax, x), d.MulHi(ax, x)
		m.GPR[AX], m.GPR[DX] = lo, hi
		of := d.Xor(d.Eq(hi, d.Const(0)), d.Const(1))
		m.setFlag(CF, of)
		m.setFlag(OF, of)
		m.undefFlag(SF)
		m.undefFlag(ZF)
		m.undefFlag(AF)
		m.undefFlag(PF)
		return nil
	case oPOPCNTL, oPOPCNTQ:
		w := uint(64)
		if in.code == oPOPCNTL {
			w = 32
		}
		x, err := m.readInt(in, a[0], w)
		if err != nil {
			return err
		}
		r := d.Popcnt(x)
		for _, f := range []int{CF, PF, AF, SF, OF} {
			m.setFlag(f, d.Const(0))
		}
		m.setFlag(ZF, d.Eq(x, d.Const(0)))
		return m.writeInt(in, a[1], w, r)

	// -- control --
	case oJMP:
		m.PC = m.Routine.Labels[a[0].Label]
		return nil
	case oJEQ, oJNE, oJCS, oJCC, oJLT, oJGE, oJLE, oJGT, oJLS, oJHI, oJMI, oJPL:
		c, err := m.cond(in.Op[1:])
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		if m.Obs != nil {
			if err := m.Obs.Branch(m, in, c); err != nil {
				return err
			}
		}
		target := m.Routine.Labels[a[0].Label]
		cv, ok := d.Concrete(c)
		if !ok {
			return &BranchUnknown{Insn: in, Target: target}
		}
		if cv != 0 {
			m.PC = target
		}
		return nil
	case oRET:
		m.Done = true
		return nil
	case oCALL:
		// The callee is not run: whoever built the machine checks the
		// call's discipline and applies the callee's contract.
		if a[0].Kind != KMem || a[0].Mem.Pseudo != "SB" || a[0].Mem.Name == "" || a[0].Mem.Disp != 0 {
			return fmt.Errorf("%s: CALL target is not a routine symbol", in)
		}
		if m.Call == nil {
			return fmt.Errorf("%s: CALL without a callee contract (not modelled)", in)
		}
		return m.Call(m, in, a[0].Mem.Name)
	case oPUSHQ, oPOPQ:
		// PUSH: RSP ← RSP − 8, then store; POP: load, then RSP ← RSP + 8
		// (SDM Vol. 2B). SP itself as the operand is not modelled.
		if a[0].Reg == SP {
			return fmt.Errorf("%s: PUSHQ/POPQ of SP not modelled", in)
		}
		sp := m.GPR[SP]
		m.noteRead(sp)
		if in.code == oPUSHQ {
			v := m.GPR[a[0].Reg]
			m.noteRead(v)
			nsp := d.Sub(sp, d.Const(8))
			if err := m.Store(in, nsp, 8, []V{v}); err != nil {
				return err
			}
			m.GPR[SP] = nsp
			return nil
		}
		ws, err := m.Load(in, sp, 8)
		if err != nil {
			return err
		}
		m.GPR[SP] = d.Add(sp, d.Const(8))
		m.GPR[a[0].Reg] = ws[0]
		return nil

	// -- SSE2 --
	case oMOVOU, oMOVO:
		v, err := m.readVec(in, a[0], 16)
		if err != nil {
			return err
		}
		return m.writeSSE(in, a[1], [4]V(v[:4]))
	case oPXOR:
		x, err := m.readVec(in, a[0], 16)
		if err != nil {
			return err
		}
		y, err := m.readVec(in, a[1], 16)
		if err != nil {
			return err
		}
		if sameReg(a[0], a[1]) {
			z := d.Const(0) // zeroing idiom
			return m.writeSSE(in, a[1], [4]V{z, z})
		}
		return m.writeSSE(in, a[1], [4]V{d.Xor(x[0], y[0]), d.Xor(x[1], y[1])})
	case oPMULULQ:
		x, err := m.readVec(in, a[0], 16)
		if err != nil {
			return err
		}
		y, err := m.readVec(in, a[1], 16)
		if err != nil {
			return err
		}
		return m.writeSSE(in, a[1], [4]V{d.Mul(m.lo32(x[0]), m.lo32(y[0])), d.Mul(m.lo32(x[1]), m.lo32(y[1]))})

	// -- AVX/AVX2 --
	case oVMOVDQU, oVMOVDQA:
		n := 16
		if vwidth(a[0]) == 32 || vwidth(a[1]) == 32 {
			n = 32
		}
		v, err := m.readVec(in, a[0], n)
		if err != nil {
			return err
		}
		return m.writeVEX(in, a[1], v, n)
	case oVPXOR, oVPAND, oVPANDN, oVPOR, oVPADDQ, oVPSUBQ, oVPUNPCKLQDQ, oVPUNPCKHQDQ, oVPMULUDQ, oVPMULDQ:
		s1, s2, n, err := m.vec3(in)
		if err != nil {
			return err
		}
		var r [8]V
		for i := 0; i < n/8; i++ {
			x, y := s1[i], s2[i]
			switch in.code {
			case oVPXOR:
				r[i] = d.Xor(x, y)
				if sameReg(in.Args[0], in.Args[1]) {
					r[i] = d.Const(0) // zeroing idiom
				}
			case oVPAND:
				r[i] = d.And(x, y)
			case oVPANDN:
				r[i] = d.And(d.Not(x), y) // NOT src1 AND src2
			case oVPOR:
				r[i] = d.Or(x, y)
			case oVPADDQ:
				r[i] = d.Add(x, y)
			case oVPSUBQ:
				r[i] = d.Sub(x, y)
			case oVPMULUDQ:
				r[i] = d.Mul(m.lo32(x), m.lo32(y))
			case oVPMULDQ:
				r[i] = d.Mul(m.sx32(x), m.sx32(y))
			case oVPUNPCKLQDQ:
				// Per 128-bit lane: dst = src1.q0, src2.q0.
				l := i &^ 1
				if i&1 == 0 {
					r[i] = s1[l]
				} else {
					r[i] = s2[l]
				}
			case oVPUNPCKHQDQ:
				l := i &^ 1
				if i&1 == 0 {
					r[i] = s1[l+1]
				} else {
					r[i] = s2[l+1]
				}
			}
		}
		return m.writeVEX(in, a[2], r, n)
	case oVPADDD, oVPSUBD, oVPMULLD, oVPCMPGTD, oVPCMPEQD, oVPMINUD, oVPMAXUD, oVPMINSD:
		s1, s2, n, err := m.vec3(in)
		if err != nil {
			return err
		}
		ones := d.Const(m32)
		zero := d.Const(0)
		var f func(x, y V) V
		switch in.code {
		case oVPADDD:
			f = d.Add
		case oVPSUBD:
			f = d.Sub
		case oVPMULLD:
			f = d.Mul
		case oVPCMPGTD:
			f = func(x, y V) V { return d.Ite(d.Slt(m.sx32(y), m.sx32(x)), ones, zero) }
		case oVPCMPEQD:
			f = func(x, y V) V { return d.Ite(d.Eq(x, y), ones, zero) }
		case oVPMINUD:
			f = func(x, y V) V { return d.Ite(d.Ult(x, y), x, y) }
		case oVPMAXUD:
			f = func(x, y V) V { return d.Ite(d.Ult(x, y), y, x) }
		case oVPMINSD:
			f = func(x, y V) V { return d.Ite(d.Slt(m.sx32(x), m.sx32(y)), x, y) }
		}
		return m.writeVEX(in, a[2], m.map32(s1, s2, n, f), n)
	case oVPABSD:
		n := vwidth(a[1])
		x, err := m.readVec(in, a[0], n)
		if err != nil {
			return err
		}
		zero := d.Const(0)
		r := m.map32(x, x, n, func(v, _ V) V {
			return d.Ite(d.Slt(m.sx32(v), zero), d.Sub(zero, v), v)
		})
		return m.writeVEX(in, a[1], r, n)
	case oVPSLLQ, oVPSRLQ, oVPSLLD, oVPSRLD, oVPSRAD:
		return m.vshift(in)
	case oVPSLLVD, oVPSRLVD:
		s1, cnt, n, err := m.vec3(in) // Go: counts, src, dst
		if err != nil {
			return err
		}
		zero := d.Const(0)
		r := m.map32(s1, cnt, n, func(x, c V) V {
			cv, ok := d.Concrete(c)
			if !ok {
				return d.Havoc(x, c)
			}
			if cv > 31 {
				return d.Dep(zero, c)
			}
			if in.code == oVPSLLVD {
				return d.Dep(d.Shl(x, uint(cv)), c)
			}
			return d.Dep(d.Shr(x, uint(cv)), c)
		})
		return m.writeVEX(in, a[2], r, n)
	case oVPSHUFB:
		s1, ctl, n, err := m.vec3(in) // Go: control, src, dst
		if err != nil {
			return err
		}
		var bs [32]V
		zero := d.Const(0)
		for i := 0; i < 32; i++ {
			if i >= n {
				bs[i] = zero
				continue
			}
			c := m.byteOf(ctl, i)
			cv, ok := d.Concrete(c)
			lane := i &^ 15
			switch {
			case !ok:
				deps := []V{c}
				for j := 0; j < 16; j++ {
					deps = append(deps, m.byteOf(s1, lane+j))
				}
				bs[i] = d.And(d.Havoc(deps...), d.Const(0xff))
			case cv&0x80 != 0:
				bs[i] = d.Dep(zero, c)
			default:
				bs[i] = d.Dep(m.byteOf(s1, lane+int(cv&15)), c)
			}
		}
		return m.writeVEX(in, a[2], m.fromBytes(bs), n)
	case oVPSHUFD:
		n := vwidth(a[2])
		im, err := m.imm(in, 0)
		if err != nil {
			return err
		}
		x, err := m.readVec(in, a[1], n)
		if err != nil {
			return err
		}
		var ds [16]V
		for i := 0; i < n/4; i++ {
			sel := int(im>>(2*(i%4))) & 3
			ds[i] = m.dword(x, (i&^3)+sel)
		}
		return m.writeVEX(in, a[2], m.fromDwords(ds, n), n)
	case oVPBROADCASTQ, oVPBROADCASTD:
		n := vwidth(a[1])
		sz := 8
		if in.code == oVPBROADCASTD {
			sz = 4
		}
		x, err := m.readVec(in, a[0], sz)
		if err != nil {
			return err
		}
		w := x[0]
		if sz == 4 {
			w = m.pack32(x[0], x[0])
		}
		return m.writeVEX(in, a[1], [8]V{w, w, w, w, w, w, w, w}, n)
	case oVPERMQ:
		im, err := m.imm(in, 0)
		if err != nil {
			return err
		}
		x, err := m.readVec(in, a[1], 32)
		if err != nil {
			return err
		}
		var r [8]V
		for i := 0; i < 4; i++ {
			r[i] = x[(im>>(2*i))&3]
		}
		return m.writeVEX(in, a[2], r, 32)
	case oVPERMD:
		idx, tbl, _, err := m.vec3(in) // Go: table, indices, dst (vec3 returns Args[1] first)
		if err != nil {
			return err
		}
		var ds [16]V
		for i := 0; i < 8; i++ {
			c := m.dword(idx, i)
			cv, ok := d.Concrete(c)
			if !ok {
				ds[i] = m.lo32(d.Havoc(c, tbl[0], tbl[1], tbl[2], tbl[3]))
				continue
			}
			ds[i] = d.Dep(m.dword(tbl, int(cv&7)), c)
		}
		return m.writeVEX(in, a[2], m.fromDwords(ds, 32), 32)
	case oVPERM2I128:
		im, err := m.imm(in, 0)
		if err != nil {
			return err
		}
		s2, err := m.readVec(in, a[1], 32)
		if err != nil {
			return err
		}
		s1, err := m.readVec(in, a[2], 32)
		if err != nil {
			return err
		}
		halves := [4][2]V{{s1[0], s1[1]}, {s1[2], s1[3]}, {s2[0], s2[1]}, {s2[2], s2[3]}}
		var r [8]V
		for h := 0; h < 2; h++ {
			ctl := im >> (4 * h)
			if ctl&8 != 0 {
				r[2*h], r[2*h+1] = d.Const(0), d.Const(0)
			} else {
				r[2*h], r[2*h+1] = halves[ctl&3][0], halves[ctl&3][1]
			}
		}
		return m.writeVEX(in, a[3], r, 32)
	case oVINSERTI128:
		im, err := m.imm(in, 0)
		if err != nil {
			return err
		}
		x, err := m.readVec(in, a[1], 16)
		if err != nil {
			return err
		}
		s1, err := m.readVec(in, a[2], 32)
		if err != nil {
			return err
		}
		h := int(im & 1)
		s1[2*h], s1[2*h+1] = x[0], x[1]
		return m.writeVEX(in, a[3], s1, 32)
	case oVEXTRACTI128:
		im, err := m.imm(in, 0)
		if err != nil {
			return err
		}
		x, err := m.readVec(in, a[1], 32)
		if err != nil {
			return err
		}
		h := int(im & 1)
		z := d.Const(0)
		return m.writeVEX(in, a[2], [8]V{x[2*h], x[2*h+1], z, z, z, z, z, z}, 16)
	case oVPUNPCKLDQ, oVPUNPCKHDQ:
		s1, s2, n, err := m.vec3(in)
		if err != nil {
			return err
		}
		var ds [16]V
		base := 0
		if in.code == oVPUNPCKHDQ {
			base = 2
		}
		// Per 128-bit lane (l: its first dword).
		for l := 0; l < n/4; l += 4 {
			ds[l] = m.dword(s1, l+base)
			ds[l+1] = m.dword(s2, l+base)
			ds[l+2] = m.dword(s1, l+base+1)
			ds[l+3] = m.dword(s2, l+base+1)
		}
		return m.writeVEX(in, a[2], m.fromDwords(ds, n), n)
	case oVPMOVMSKB, oVMOVMSKPS:
		n := vwidth(a[0])
		x, err := m.readVec(in, a[0], n)
		if err != nil {
			return err
		}
		r := d.Const(0)
		if in.code == oVPMOVMSKB {
			for i := 0; i < n; i++ {
				b := m.bit(x[i/8], uint(8*(i%8)+7))
				r = d.Or(r, d.Shl(b, uint(i)))
			}
		} else {
			for i := 0; i < n/4; i++ {
				b := m.bit(x[i/2], uint(32*(i%2)+31))
				r = d.Or(r, d.Shl(b, uint(i)))
			}
		}
		return m.writeInt(in, a[1], 32, r)
	case oVPBLENDD:
		im, err := m.imm(in, 0)
		if err != nil {
			return err
		}
		n := vwidth(a[3])
		s2, err := m.readVec(in, a[1], n)
		if err != nil {
			return err
		}
		s1, err := m.readVec(in, a[2], n)
		if err != nil {
			return err
		}
		var ds [16]V
		for i := 0; i < n/4; i++ {
			if im>>i&1 != 0 {
				ds[i] = m.dword(s2, i)
			} else {
				ds[i] = m.dword(s1, i)
			}
		}
		return m.writeVEX(in, a[3], m.fromDwords(ds, n), n)
	case oVPBLENDVB:
		// Go: mask, src2, src1, dst; byte i = mask.bit7 ? src2 : src1.
		n := vwidth(a[3])
		mk, err := m.readVec(in, a[0], n)
		if err != nil {
			return err
		}
		s2, err := m.readVec(in, a[1], n)
		if err != nil {
			return err
		}
		s1, err := m.readVec(in, a[2], n)
		if err != nil {
			return err
		}
		var r [8]V
		for i := 0; i < n/8; i++ {
			// Spread each byte's bit 7 over the byte: (b7 >> 7) * 0xff has
			// no carries between bytes.
			sel := d.Mul(d.Shr(d.And(mk[i], d.Const(0x8080808080808080)), 7), d.Const(0xff))
			r[i] = d.Or(d.And(s2[i], sel), d.And(s1[i], d.Not(sel)))
		}
		for i := n / 8; i < 8; i++ {
			r[i] = d.Const(0)
		}
		return m.writeVEX(in, a[3], r, n)
	case oVZEROUPPER:
		// SDM Vol. 2C, VZEROUPPER, Operation (64-bit mode): ZMM[i][MAXVL-1:128]
		// ← 0 for i = 0…15; zmm16–31 are unchanged.
		z := d.Const(0)
		for i := 0; i < 16; i++ {
			for w := 2; w < 8; w++ {
				m.Vec[i][w] = z
			}
		}
		return nil

	// -- MXCSR --
	case oSTMXCSR:
		addr, err := m.EffAddr(in, a[0].Mem)
		if err != nil {
			return err
		}
		m.noteRead(m.MXCSR)
		return m.Store(in, addr, 4, []V{m.MXCSR})
	case oLDMXCSR:
		addr, err := m.EffAddr(in, a[0].Mem)
		if err != nil {
			return err
		}
		ws, err := m.Load(in, addr, 4)
		if err != nil {
			return err
		}
		// Setting reserved bits (31:16 here) raises #GP.
		if v, ok := d.Concrete(ws[0]); !ok || v>>16 != 0 {
			return fmt.Errorf("%s: LDMXCSR of %#x sets reserved bits or is not concrete (#GP)", in, v)
		}
		m.MXCSR = ws[0]
		return nil
	case oLFENCE:
		return nil

	// -- AVX-512 (EVEX.128/256/512; the decoder accepts no mask or
	// broadcast) --
	case oVPTERNLOGQ, oVPROLQ, oVPRORQ, oVPXORQ, oVMOVDQU64, oVSHUFI64X2, oVPERMT2D:
		return m.evex(in)
	}
	return fmt.Errorf("%s: no semantics for %s", in, in.Op)
}

// evex runs the AVX-512 instructions, lane by lane over the destination's
// n/8 quadwords (n = 16, 32 or 64 bytes). An EVEX.128/256 result zeroes
// the destination's bits 511:n·8 (SDM Vol. 2A, 2.7.1), as writeVec8 does.
func (m *Machine[V]) evex(in *Insn) error {
	d := m.D
	a := in.Args
	dst := a[len(a)-1]
	n := vwidth(dst)
	var r [8]V
	for i := range r {
		r[i] = d.Const(0)
	}
	switch in.code {
	case oVMOVDQU64:
		// SDM Vol. 2B, VMOVDQU64, Operation (no mask): DEST[n·8−1:0] ←
		// SRC[n·8−1:0]; a register destination's upper bits are zeroed.
		n = max(vwidth(a[0]), n)
		v, err := m.readVec8(in, a[0], n)
		if err != nil {
			return err
		}
		return m.writeVec8(in, dst, v, n)
	case oVPXORQ:
		// SDM Vol. 2B, VPXORQ (EVEX encoded versions), Operation:
		// DEST.qword[j] ← SRC1.qword[j] BITWISE XOR SRC2.qword[j].
		s2, err := m.readVec8(in, a[0], n)
		if err != nil {
			return err
		}
		s1, err := m.readVec8(in, a[1], n)
		if err != nil {
			return err
		}
		for i := 0; i < n/8; i++ {
			r[i] = d.Xor(s1[i], s2[i])
		}
		return m.writeVec8(in, dst, r, n)
	}
	if in.code == oVPERMT2D {
		// VPERMT2D src2, idx, dst (Go order). SDM Vol. 2C, VPERMT2D,
		// Operation (no mask): with KL = n/4 dwords and id = log2 KL,
		// dword j of the result is dword IDX[j][id−1:0] of SRC2 where bit
		// id of IDX[j] is set, else of the old DEST.
		src2, err := m.readVec8(in, a[0], n)
		if err != nil {
			return err
		}
		idx, err := m.readVec8(in, a[1], n)
		if err != nil {
			return err
		}
		tbl, err := m.readVec8(in, dst, n)
		if err != nil {
			return err
		}
		kl := uint64(n / 4)
		var ds [16]V
		for j := 0; j < n/4; j++ {
			c := m.dword(idx, j)
			cv, ok := d.Concrete(c)
			if !ok {
				deps := append([]V{c}, src2[:n/8]...)
				ds[j] = m.lo32(d.Havoc(append(deps, tbl[:n/8]...)...))
				continue
			}
			from := tbl
			if cv&kl != 0 {
				from = src2
			}
			ds[j] = d.Dep(m.dword(from, int(cv&(kl-1))), c)
		}
		return m.writeVec8(in, dst, m.fromDwords(ds, n), n)
	}
	imm, err := m.imm(in, 0)
	if err != nil {
		return err
	}
	src, err := m.readVec8(in, a[1], n)
	if err != nil {
		return err
	}
	switch in.code {
	case oVSHUFI64X2:
		// VSHUFI64X2 imm, src2, src1, dst (Go order). SDM Vol. 2C,
		// VSHUFI64x2, Operation (no mask): at 512 bits, 128-bit block b of
		// the result is block imm8[2b+1:2b] of SRC1 for b = 0, 1 and of SRC2
		// for b = 2, 3 (Select4); at 256 bits, block b is block imm8[b] of
		// SRC1 for b = 0 and of SRC2 for b = 1 (Select2).
		s1, err := m.readVec8(in, a[2], n)
		if err != nil {
			return err
		}
		blocks, bits := n/16, uint(2)
		if n == 32 {
			bits = 1
		}
		for b := 0; b < blocks; b++ {
			from := s1
			if b >= blocks/2 {
				from = src
			}
			k := int(imm>>(bits*uint(b))) & (1<<bits - 1)
			r[2*b], r[2*b+1] = from[2*k], from[2*k+1]
		}
		return m.writeVec8(in, dst, r, n)
	case oVPROLQ, oVPRORQ:
		// SDM Vol. 2C, VPROLQ: COUNT ← imm8 MOD 64; DEST.qword[j] ←
		// LEFT_ROTATE_QWORDS(SRC1.qword[j], COUNT); VPRORQ rotates right.
		k := uint(imm & 63)
		if in.code == oVPRORQ {
			k = (64 - k) & 63
		}
		for i := 0; i < n/8; i++ {
			r[i] = d.Rol(src[i], k)
		}
		return m.writeVec8(in, dst, r, n)
	}
	// VPTERNLOGQ imm, src3, src2, dst (Go order): bit j of the result is
	// imm8[dst_j·4 + src2_j·2 + src3_j] (SDM Vol. 2C, VPTERNLOGQ,
	// Operation). It is computed as that table's algebraic normal form:
	// f = ⊕ over S ⊆ {dst, src2, src3} with c_S = 1 of ∧S, where c_S is
	// the XOR of imm8[i] over the indices i whose set bits lie in S
	// (the Möbius transform); TestTernlogTable checks all 256 tables.
	s2, err := m.readVec8(in, a[2], n)
	if err != nil {
		return err
	}
	s1, err := m.readVec8(in, dst, n)
	if err != nil {
		return err
	}
	var c [8]bool
	for sub := 0; sub < 8; sub++ {
		for i := 0; i < 8; i++ {
			if i&^sub == 0 && imm>>i&1 == 1 {
				c[sub] = !c[sub]
			}
		}
	}
	for w := 0; w < n/8; w++ {
		ops := [3]V{src[w], s2[w], s1[w]} // index bits 0, 1, 2
		var acc V
		have := false
		for sub := 1; sub < 8; sub++ {
			if !c[sub] {
				continue
			}
			var t V
			first := true
			for b := 0; b < 3; b++ {
				if sub>>b&1 == 0 {
					continue
				}
				if first {
					t, first = ops[b], false
				} else {
					t = d.And(t, ops[b])
				}
			}
			if have {
				acc = d.Xor(acc, t)
			} else {
				acc, have = t, true
			}
		}
		if !have {
			acc = d.Const(0)
		}
		if c[0] {
			acc = d.Not(acc)
		}
		r[w] = acc
	}
	return m.writeVec8(in, dst, r, n)
}

func (m *Machine[V]) mov(in *Insn, rw, ww uint) error {
	v, err := m.readInt(in, in.Args[0], rw)
	if err != nil {
		return err
	}
	if ww == 64 && rw < 64 {
		// Zero-extending forms.
		return m.writeInt(in, in.Args[1], 64, v)
	}
	return m.writeInt(in, in.Args[1], ww, v)
}

// movqXMM handles MOVQ between X registers, GPRs and memory (SDM Vol. 2B,
// MOVQ / MOVD/MOVQ): loads into X zero bits 127:64; as a legacy SSE
// instruction it leaves bits 255:128 unchanged.
func (m *Machine[V]) movqXMM(in *Insn) error {
	src, dst := in.Args[0], in.Args[1]
	var v V
	if src.Kind == KReg && src.Reg.IsX() {
		v = m.Vec[src.Reg.Vec()][0]
		m.noteRead(v)
	} else {
		var err error
		if v, err = m.readInt(in, src, 64); err != nil {
			return err
		}
	}
	if dst.Kind == KReg && dst.Reg.IsX() {
		r := &m.Vec[dst.Reg.Vec()]
		r[0], r[1] = v, m.D.Const(0)
		return nil
	}
	return m.writeInt(in, dst, 64, v)
}

func (m *Machine[V]) logicFlags(r V, w uint) {
	m.setThunk(thunk[V]{kind: tkLogic, width: w, r: r})
	m.undefFlag(AF)
}

func (m *Machine[V]) addsub(in *Insn) error {
	d := m.D
	a := in.Args
	var w uint = 64
	switch in.code {
	case oADDL, oSUBL, oCMPL:
		w = 32
	}
	if in.code == oCMPQ || in.code == oCMPL {
		// CMP keeps Intel's operand order in Go: flags of arg0 − arg1.
		x, err := m.readInt(in, a[0], w)
		if err != nil {
			return err
		}
		y, err := m.readInt(in, a[1], w)
		if err != nil {
			return err
		}
		m.setThunk(thunk[V]{kind: tkSub, width: w, a: x, b: y, r: m.mask(d.Sub(x, y), w)})
		return nil
	}
	src, err := m.readInt(in, a[0], w)
	if err != nil {
		return err
	}
	dst, err := m.readInt(in, a[1], w)
	if err != nil {
		return err
	}
	t := thunk[V]{width: w, a: dst, b: src}
	var r V
	switch in.code {
	case oADDQ, oADDL:
		t.kind, r = tkAdd, d.Add(dst, src)
	case oSUBQ, oSUBL:
		t.kind, r = tkSub, d.Sub(dst, src)
	case oADCQ, oSBBQ:
		c, err := m.Flag(CF)
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		m.noteRead(c)
		t.cin, t.hasC = c, true
		if in.code == oADCQ {
			t.kind, r = tkAdd, d.Add(d.Add(dst, src), c)
		} else {
			t.kind, r = tkSub, d.Sub(d.Sub(dst, src), c)
		}
	}
	r = m.mask(r, w)
	t.r = r
	m.setThunk(t)
	return m.writeInt(in, a[1], w, r)
}

// shift implements SHL/SHR/SAR/ROL/ROR (SDM Vol. 2B): the count is masked
// to 6 (64-bit) or 5 (32-bit) bits; a zero count changes no flags; OF is
// defined only for a count of 1; AF is undefined; ROL/ROR change only CF
// and OF.
func (m *Machine[V]) shift(in *Insn) error {
	d := m.D
	a := in.Args
	var w uint = 64
	switch in.code {
	case oSHLL, oSHRL, oSARL:
		w = 32
	}
	var cnt uint64
	var cntV V
	variable := a[0].Kind != KImm
	if !variable {
		cnt = uint64(a[0].Imm)
	} else {
		if a[0].Reg != CX {
			return fmt.Errorf("%s: variable shift count must be CX (CL)", in)
		}
		cntV = m.mask(m.GPR[CX], 8)
		m.noteRead(cntV)
		var ok bool
		if cnt, ok = d.Concrete(cntV); !ok {
			x, err := m.readInt(in, a[1], w)
			if err != nil {
				return err
			}
			for f := range m.fstate {
				m.undefFlag(f)
			}
			return m.writeInt(in, a[1], w, m.mask(d.Havoc(x, cntV), w))
		}
	}
	cnt &= uint64(w - 1)
	x, err := m.readInt(in, a[1], w)
	if err != nil {
		return err
	}
	if cnt == 0 {
		if variable {
			x = d.Dep(x, cntV)
		}
		return m.writeInt(in, a[1], w, x)
	}
	c := uint(cnt)
	var r, cf V
	switch in.code {
	case oSHLQ, oSHLL:
		r = m.mask(d.Shl(x, c), w)
		cf = m.bit(x, w-c)
	case oSHRQ, oSHRL:
		r = d.Shr(x, c)
		cf = m.bit(x, c-1)
	case oSARQ, oSARL:
		sx := x
		if w == 32 {
			sx = m.sx32(x)
		}
		r = m.mask(d.Sar(sx, c), w)
		cf = m.bit(sx, c-1)
	case oROLQ:
		r = d.Rol(x, c)
		cf = m.bit(r, 0)
	case oRORQ:
		r = d.Rol(x, 64-c)
		cf = m.bit(r, 63)
	}
	if variable {
		// The result depends on the count too (for taint).
		r, cf = d.Dep(r, cntV), d.Dep(cf, cntV)
	}
	if in.code == oROLQ || in.code == oRORQ {
		m.setFlag(CF, cf)
		if c == 1 {
			if in.code == oROLQ {
				m.setFlag(OF, d.Xor(m.bit(r, 63), cf))
			} else {
				m.setFlag(OF, d.Xor(m.bit(r, 63), m.bit(r, 62)))
			}
		} else {
			m.undefFlag(OF)
		}
		return m.writeInt(in, a[1], w, r)
	}
	m.setThunk(thunk[V]{kind: tkLogic, width: w, r: r})
	m.undefFlag(AF)
	m.setFlag(CF, cf)
	if c == 1 {
		switch in.code {
		case oSHLQ, oSHLL:
			m.setFlag(OF, d.Xor(m.bit(r, w-1), cf))
		case oSHRQ, oSHRL:
			m.setFlag(OF, m.bit(x, w-1))
		default:
			m.setFlag(OF, d.Const(0))
		}
	} else {
		m.undefFlag(OF)
	}
	return m.writeInt(in, a[1], w, r)
}

// imul implements IMUL r, r/m and IMUL r, r/m, imm (Go: IMULQ src, dst and
// IMUL3Q $imm, src, dst): the truncated signed product; CF = OF = 1 when it
// does not fit; SF, ZF, AF, PF undefined.
func (m *Machine[V]) imul(in *Insn) error {
	d := m.D
	a := in.Args
	var w uint = 64
	if in.code == oIMULL || in.code == oIMUL3L {
		w = 32
	}
	var x, y V
	var err error
	dst := a[len(a)-1]
	if len(a) == 3 {
		x = m.mask(d.Const(uint64(a[0].Imm)), w)
		if y, err = m.readInt(in, a[1], w); err != nil {
			return err
		}
	} else {
		if x, err = m.readInt(in, a[0], w); err != nil {
			return err
		}
		if y, err = m.readInt(in, a[1], w); err != nil {
			return err
		}
	}
	var r, of V
	if w == 32 {
		p := d.Mul(m.sx32(x), m.sx32(y))
		r = m.lo32(p)
		of = d.Xor(d.Eq(p, m.sx32(r)), d.Const(1))
	} else {
		r = d.Mul(x, y)
		// Signed high word = unsigned high − (x<0 ? y : 0) − (y<0 ? x : 0).
		z := d.Const(0)
		hi := d.MulHi(x, y)
		hi = d.Sub(hi, d.Ite(d.Slt(x, z), y, z))
		hi = d.Sub(hi, d.Ite(d.Slt(y, z), x, z))
		of = d.Xor(d.Eq(hi, d.Sar(r, 63)), d.Const(1))
	}
	m.setFlag(CF, of)
	m.setFlag(OF, of)
	m.undefFlag(SF)
	m.undefFlag(ZF)
	m.undefFlag(AF)
	m.undefFlag(PF)
	return m.writeInt(in, dst, w, r)
}

func (m *Machine[V]) vshift(in *Insn) error {
	d := m.D
	a := in.Args
	n := vwidth(a[2])
	x, err := m.readVec(in, a[1], n)
	if err != nil {
		return err
	}
	cnt, cntV, ok, err := m.vshiftCount(in)
	if err != nil {
		return err
	}
	var r [8]V
	z := d.Const(0)
	for i := range r {
		r[i] = z
	}
	for i := 0; i < n/8; i++ {
		if !ok {
			r[i] = d.Havoc(x[i], cntV)
			continue
		}
		var v V
		switch in.code {
		case oVPSLLQ:
			if cnt > 63 {
				v = z
			} else {
				v = d.Shl(x[i], uint(cnt))
			}
		case oVPSRLQ:
			if cnt > 63 {
				v = z
			} else {
				v = d.Shr(x[i], uint(cnt))
			}
		case oVPSLLD, oVPSRLD, oVPSRAD:
			lo, hi := m.lo32(x[i]), m.hi32(x[i])
			f := func(e V) V {
				switch in.code {
				case oVPSLLD:
					if cnt > 31 {
						return z
					}
					return d.Shl(e, uint(cnt))
				case oVPSRLD:
					if cnt > 31 {
						return z
					}
					return d.Shr(e, uint(cnt))
				}
				c := min(cnt, 31)
				return d.Sar(m.sx32(e), uint(c))
			}
			v = m.pack32(f(lo), f(hi))
		}
		r[i] = d.Dep(v, cntV)
	}
	return m.writeVEX(in, a[2], r, n)
}

// sameReg reports whether two operands name the same register (X and Y
// forms of one vector register count as the same).
func sameReg(a, b Operand) bool {
	if a.Kind != KReg || b.Kind != KReg {
		return false
	}
	vec := func(r Reg) bool { return r.IsX() || r.IsY() }
	if !vec(a.Reg) || !vec(b.Reg) {
		return a.Reg == b.Reg
	}
	return a.Reg.Vec() == b.Reg.Vec()
}
