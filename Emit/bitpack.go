package main

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("bitpack", buildBitPack) }

// The bit packings of FIPS 204, §7.2 (Algorithms 16 to 19) at the widths
// ML-DSA uses. Coefficient i of a polynomial occupies bits [i·w, i·w + w)
// of the encoding, so eight coefficients fill exactly w bytes: a "group".
// Every routine walks the 32 groups in a fixed order with fixed offsets;
// the wiring of bits is decided here, at generation time, never by data.
//
// Baseline: a block of four groups (32 coefficients, 4w bytes) at a time
// in a 64-bit accumulator, whole 32-bit words in and out.
//
// AVX2, packing: each coefficient is shifted left by its bit offset within
// its first byte (VPSLLVD), then byte shuffles (VPSHUFB) gather, for every
// output byte, the bytes of the coefficients that share it, and VPOR
// merges them. A 128-bit lane makes one byte-aligned unit of output: four
// coefficients (w/2 bytes) when w is even, eight (w bytes; VPERM2I128
// first brings two groups' halves together) when w is odd. Each lane is
// stored as 16 bytes; the next store overwrites what lies past the unit.
// The last blocks, where a 16-byte store would pass the end, take the
// baseline code.
//
// AVX2, unpacking: one group per ymm; the low lane loads 16 bytes at the
// group, the high lane at the byte of coefficient 4; VPSHUFB gives each
// dword the four bytes from the coefficient's first byte, VPSRLVD drops its
// bit offset and VPAND keeps w bits. In the last groups, where a load
// would pass the end, a lane loads the 16 bytes that end the encoding and
// its shuffle reads the group's bytes where they then are; the η decoders
// leave those blocks to the baseline code instead.

// packing is one routine's encoding: width w, and for BitPack/BitUnpack
// (signed) the b of Algorithm 17: the value packed is b − coefficient mod q.
type packing struct {
	width  int
	b      uint32
	signed bool
	// checked: the unpacking also reports a value above max (η).
	checked bool
	max     uint32
}

// The packings of Spec/contract (bitpack.go): SimpleBitPack for w1 (4, 6
// bits) and t1 (10), BitPack for η (3, 4), t0 (13) and z (18, 20).
var (
	simplePackings = []packing{{width: 4}, {width: 6}, {width: 10}}
	signedPackings = []packing{
		{width: 3, b: 2, signed: true, checked: true, max: 4},
		{width: 4, b: 4, signed: true, checked: true, max: 8},
		{width: 13, b: 1 << 12, signed: true},
		{width: 18, b: 1 << 17, signed: true},
		{width: 20, b: 1 << 19, signed: true},
	}
)

func (p packing) name(verb string) string {
	if p.signed {
		return fmt.Sprintf("%s%d", verb, p.width)
	}
	return fmt.Sprintf("Simple%s%d", verb, p.width)
}

// bitOff and byteOff place coefficient j of a group: its first byte and
// its first bit within that byte.
func (p packing) byteOff(j int) int { return j * p.width / 8 }
func (p packing) bitOff(j int) int  { return j * p.width % 8 }

// span is how many bytes coefficient j touches.
func (p packing) span(j int) int { return (p.bitOff(j) + p.width + 7) / 8 }

func buildBitPack(c *build.Context) {
	for _, p := range append(append([]packing{}, simplePackings...), signedPackings...) {
		for _, avx2 := range []bool{true, false} {
			name := p.name("BitPack") + suffix(avx2)
			n := 32 * p.width
			what := "SimpleBitPack(w) (FIPS 204, Algorithm 16) for w[i] < 2^" + fmt.Sprint(p.width)
			if p.signed {
				what = fmt.Sprintf("BitPack(w, a, %d) (FIPS 204, Algorithm 17) for w[i] in [%d − 2^%d + 1, %d] mod q",
					p.b, p.b, p.width, p.b)
			}
			c.Function(name)
			c.SignatureExpr(fmt.Sprintf("func(out *[%d]byte, w *[256]uint32)", n))
			c.Doc(name+" sets out to "+what+".", variantDoc(avx2))
			c.Pragma("noescape")
			c.Load(c.Param("out"), reg.RDI)
			c.Load(c.Param("w"), reg.RSI)
			first, k := 0, (*table)(nil)
			switch {
			case avx2 && p.width == 4:
				first, k = avx2Pack4(c, p, name)
			case avx2 && p.width == 3:
				first, k = avx2Pack3(c, p, name)
			case avx2:
				first, k = avx2Pack(c, p, name)
			}
			if first < 32 {
				gprBlocks(c, p, first, func(g int) { gprPackBlock(c, p, g) })
			}
			if avx2 {
				c.VZEROUPPER()
			}
			c.RET()
			if k != nil {
				k.emit()
			}
		}
	}
}

// gprBlocks emits the baseline code for the blocks of four groups from
// group first (a multiple of four) to the end: a loop of one block an
// iteration, or the one block. The pointers (RSI coefficients, RDI bytes)
// have already passed the groups before first.
func gprBlocks(c *build.Context, p packing, first int, block func(g int)) {
	n := (32 - first) / 4
	if n == 1 {
		block(0)
		return
	}
	label := fmt.Sprintf("blocks%d", first)
	c.MOVL(operand.U32(n), reg.ECX)
	c.Label(label)
	block(0)
	p.advance(c, 4)
	c.DECL(reg.ECX)
	c.JNE(operand.LabelRef(label))
}

// advance moves the pointers past g groups: RSI and RDI; the polynomial
// side by 32 bytes a group, the encoded side by w.
func (p packing) advance(c *build.Context, g int) {
	c.ADDQ(operand.U32(32*g), reg.RSI)
	c.ADDQ(operand.U32(p.width*g), reg.RDI)
}

// gprSigned sets x (32 bits) to b − x mod q for x < 2^31; t is a
// temporary: the borrow of b − x becomes a mask for q.
func gprSigned(c *build.Context, b uint32, x, t reg.GPPhysical) {
	c.MOVL(x, t.As32())
	c.MOVL(operand.U32(b), x)
	c.SUBL(t.As32(), x)
	c.SBBQ(t.As64(), t.As64())
	c.ANDL(operand.U32(mldsaQ), t.As32())
	c.ADDL(t.As32(), x)
}

// gprPackBlock packs the block of four groups at RSI + 128g into RDI +
// 4w·g: coefficients gather in RAX (at most 31 + 20 bits), which leaves 32
// bits at a time; 32 coefficients make 4w bytes, whole words.
func gprPackBlock(c *build.Context, p packing, g int) {
	in, out := 128*g, 4*p.width*g
	nb := 0
	for j := 0; j < 32; j++ {
		src := operand.Mem{Base: reg.RSI, Disp: in + 4*j}
		dst := reg.EDX
		if nb == 0 {
			dst = reg.EAX
		}
		c.MOVL(src, dst)
		if p.signed {
			gprSigned(c, p.b, dst, reg.RBX)
		}
		if nb > 0 {
			c.SHLQ(operand.U8(nb), reg.RDX)
			c.ORQ(reg.RDX, reg.RAX)
		}
		nb += p.width
		for nb >= 32 {
			c.MOVL(reg.EAX, operand.Mem{Base: reg.RDI, Disp: out})
			if nb > 32 {
				c.SHRQ(operand.U8(32), reg.RAX)
			}
			out, nb = out+4, nb-32
		}
	}
}

// table is a routine's constants: 32-byte rows.
type table struct {
	c    *build.Context
	sym  operand.Symbol
	rows [][32]byte
}

// constName names the table of a routine: its name without the variant,
// lower-case first.
func constName(name string) string {
	return strings.ToLower(name[:1]) + strings.TrimSuffix(name[1:], "AVX2") + "Consts"
}

func newTable(c *build.Context, name string) *table {
	return &table{c: c, sym: operand.NewStaticSymbol(name)}
}

// row returns the address of a row, adding it if new.
func (t *table) row(r [32]byte) operand.Mem {
	for i, x := range t.rows {
		if x == r {
			return operand.NewDataAddr(t.sym, 32*i)
		}
	}
	t.rows = append(t.rows, r)
	return operand.NewDataAddr(t.sym, 32*(len(t.rows)-1))
}

// dwords is a row of eight words; bcast one word in every lane.
func (t *table) dwords(w [8]uint32) operand.Mem {
	var r [32]byte
	for i, x := range w {
		for k := 0; k < 4; k++ {
			r[4*i+k] = byte(x >> (8 * k))
		}
	}
	return t.row(r)
}

func (t *table) bcast(x uint32) operand.Mem {
	return t.dwords([8]uint32{x, x, x, x, x, x, x, x})
}

func (t *table) emit() {
	t.c.StaticGlobal(t.sym.Name)
	t.c.DataAttributes(attr.RODATA | attr.NOPTR)
	for _, r := range t.rows {
		for i := 0; i < 32; i += 4 {
			t.c.AppendDatum(operand.U32(uint32(r[i]) | uint32(r[i+1])<<8 | uint32(r[i+2])<<16 | uint32(r[i+3])<<24))
		}
	}
}

// avx2Signed sets x to b − x mod q in every lane, for b in every lane of
// Y14 (t a temporary).
func avx2Signed(c *build.Context, k *table, x, t reg.VecPhysical) {
	c.VPSUBD(x, reg.Y14, x)
	c.VPSRAD(operand.U8(31), x, t)
	c.VPAND(k.bcast(mldsaQ), t, t)
	c.VPADDD(t, x, x)
}

// avx2Pack emits the vector part of a packing and returns the first group
// left to the baseline code, and the constants to emit after the routine.
func avx2Pack(c *build.Context, p packing, name string) (int, *table) {
	k := newTable(c, constName(name))
	// A lane's unit: its coefficients' positions within the unit, per
	// source register (one, or two when w is odd).
	unitBytes, perIter := p.width/2, 1
	sources := [][4]int{{0, 1, 2, 3}}
	if p.width%2 == 1 {
		unitBytes, perIter = p.width, 2
		sources = [][4]int{{0, 1, 2, 3}, {4, 5, 6, 7}}
	}
	// Iterations whose second lane's 16-byte store ends inside out.
	iters := 0
	for (iters*2+1)*unitBytes+16 <= 32*p.width && (iters+1)*perIter <= 32 {
		iters++
	}
	iters -= iters * perIter % 4 / perIter // the baseline takes whole blocks
	// The shuffles: for each output byte of a unit, the source bytes that
	// reach it, per source.
	type round struct {
		src  int
		mask [32]byte
	}
	var rounds []round
	var shifts [][8]uint32
	for s, js := range sources {
		var sh [8]uint32
		contrib := make([][]byte, 16)
		for d, j := range js {
			sh[d], sh[d+4] = uint32(p.bitOff(j)), uint32(p.bitOff(j))
			for t := 0; t < p.span(j); t++ {
				o := p.byteOff(j) + t
				contrib[o] = append(contrib[o], byte(4*d+t))
			}
		}
		shifts = append(shifts, sh)
		for r := 0; ; r++ {
			var m [32]byte
			any := false
			for o := 0; o < 16; o++ {
				m[o], m[o+16] = 0x80, 0x80
				if o < unitBytes && r < len(contrib[o]) {
					m[o], m[o+16] = contrib[o][r], contrib[o][r]
					any = true
				}
			}
			if !any {
				break
			}
			rounds = append(rounds, round{s, m})
		}
	}

	if p.signed {
		c.VMOVDQU(k.bcast(p.b), reg.Y14)
	}
	c.MOVL(operand.U32(iters), reg.ECX)
	c.Label("vector")
	src := []reg.VecPhysical{reg.Y0, reg.Y1}
	if perIter == 1 {
		c.VMOVDQU(operand.Mem{Base: reg.RSI}, reg.Y0)
		if p.signed {
			avx2Signed(c, k, reg.Y0, reg.Y4)
		}
	} else {
		c.VMOVDQU(operand.Mem{Base: reg.RSI}, reg.Y2)
		c.VMOVDQU(operand.Mem{Base: reg.RSI, Disp: 32}, reg.Y3)
		if p.signed {
			avx2Signed(c, k, reg.Y2, reg.Y4)
			avx2Signed(c, k, reg.Y3, reg.Y4)
		}
		// Lane 0 takes the first group, lane 1 the second.
		c.VPERM2I128(operand.U8(0x20), reg.Y3, reg.Y2, reg.Y0)
		c.VPERM2I128(operand.U8(0x31), reg.Y3, reg.Y2, reg.Y1)
	}
	for s := range sources {
		c.VPSLLVD(k.dwords(shifts[s]), src[s], src[s])
	}
	for i, r := range rounds {
		if i == 0 {
			c.VPSHUFB(k.row(r.mask), src[r.src], reg.Y5)
			continue
		}
		c.VPSHUFB(k.row(r.mask), src[r.src], reg.Y6)
		c.VPOR(reg.Y6, reg.Y5, reg.Y5)
	}
	c.VMOVDQU(reg.X5, operand.Mem{Base: reg.RDI})
	c.VEXTRACTI128(operand.U8(1), reg.Y5, operand.Mem{Base: reg.RDI, Disp: unitBytes})
	c.ADDQ(operand.U32(32*perIter), reg.RSI)
	c.ADDQ(operand.U32(2*unitBytes), reg.RDI)
	c.DECL(reg.ECX)
	c.JNE(operand.LabelRef("vector"))
	return iters * perIter, k
}

// avx2Pack4 emits the whole of a 4-bit packing (w1 for γ2 = (q − 1)/32,
// η = 4): four groups (32 coefficients, 16 bytes) an iteration, no
// baseline tail. Each coefficient is shifted left by 4·(i mod 8), its
// place in its group's word; then the eight words of each group are ORed
// together, four groups at once: pairs of words by VPSHUFD, the groups
// brought together by VPBLENDD and VPUNPCK[LH]QDQ, and the two 128-bit
// halves by VPERM2I128. The low lane then holds the four groups' words in
// order, stored as 16 bytes.
func avx2Pack4(c *build.Context, p packing, name string) (int, *table) {
	k := newTable(c, constName(name))
	var sh [8]uint32
	for d := range sh {
		sh[d] = uint32(4 * d)
	}
	if p.signed {
		c.VMOVDQU(k.bcast(p.b), reg.Y14)
	}
	c.MOVL(operand.U32(8), reg.ECX)
	c.Label("vector")
	g := []reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3}
	for i, y := range g {
		c.VMOVDQU(operand.Mem{Base: reg.RSI, Disp: 32 * i}, y)
		if p.signed {
			avx2Signed(c, k, y, reg.Y4)
		}
		c.VPSLLVD(k.dwords(sh), y, y)
		// Words 2m and 2m+1 ORed, in both.
		c.VPSHUFD(operand.U8(0xB1), y, reg.Y4)
		c.VPOR(reg.Y4, y, y)
	}
	// Per 128-bit lane, groups A to D (pairs a01, a23, …):
	// [a01, b01, a23, b23] and [c01, d01, c23, d23] …
	c.VPBLENDD(operand.U8(0xAA), reg.Y1, reg.Y0, reg.Y0)
	c.VPBLENDD(operand.U8(0xAA), reg.Y3, reg.Y2, reg.Y2)
	// … then [a0123, b0123, c0123, d0123].
	c.VPUNPCKLQDQ(reg.Y2, reg.Y0, reg.Y4)
	c.VPUNPCKHQDQ(reg.Y2, reg.Y0, reg.Y5)
	c.VPOR(reg.Y5, reg.Y4, reg.Y4)
	// The high lane (words 4 to 7 of each group) onto the low one.
	c.VPERM2I128(operand.U8(0x01), reg.Y4, reg.Y4, reg.Y5)
	c.VPOR(reg.Y5, reg.Y4, reg.Y4)
	c.VMOVDQU(reg.X4, operand.Mem{Base: reg.RDI})
	c.ADDQ(operand.U32(128), reg.RSI)
	c.ADDQ(operand.U32(16), reg.RDI)
	c.DECL(reg.ECX)
	c.JNE(operand.LabelRef("vector"))
	return 32, k
}

// avx2Pack3 emits the whole of the 3-bit packing (η = 2): eight groups (64
// coefficients, 24 bytes) an iteration, no baseline tail. b − w mod q is
// min(b − w, b − w + q) as unsigned words (one of the two is below q).
// Each coefficient is shifted left by 3·(i mod 8) and the eight words of
// each group ORed as avx2Pack4 does, four groups at once, twice; the low
// lane then holds groups 0 to 3 (a 24-bit word each), the high lane groups
// 4 to 7. One shuffle drops each word's top byte, and VPERMD puts bytes 0
// to 15 of the 24 in the low lane and bytes 8 to 23 in the high one, both
// stored: the two stores overlap with the same bytes, and neither passes
// the iteration's 24 bytes, so none passes the end.
func avx2Pack3(c *build.Context, p packing, name string) (int, *table) {
	k := newTable(c, constName(name))
	var sh [8]uint32
	for d := range sh {
		sh[d] = uint32(3 * d)
	}
	var compact [32]byte
	for i := range 16 {
		compact[i], compact[16+i] = 0x80, 0x80
		if i < 12 {
			compact[i], compact[16+i] = byte(i/3*4+i%3), byte(i/3*4+i%3)
		}
	}
	c.VMOVDQU(k.bcast(p.b), reg.Y14)
	c.VMOVDQU(k.dwords([8]uint32{0, 1, 2, 4, 2, 4, 5, 6}), reg.Y12)
	c.MOVL(operand.U32(4), reg.ECX)
	c.Label("vector")
	g := []reg.VecPhysical{reg.Y0, reg.Y1, reg.Y2, reg.Y3}
	for h, out := range []reg.VecPhysical{reg.Y8, reg.Y9} {
		for i, y := range g {
			c.VMOVDQU(operand.Mem{Base: reg.RSI, Disp: 32 * (4*h + i)}, y)
			c.VPSUBD(y, reg.Y14, y)
			c.VPADDD(k.bcast(mldsaQ), y, reg.Y4)
			c.VPMINUD(reg.Y4, y, y)
			c.VPSLLVD(k.dwords(sh), y, y)
			c.VPSHUFD(operand.U8(0xB1), y, reg.Y4)
			c.VPOR(reg.Y4, y, y)
		}
		c.VPBLENDD(operand.U8(0xAA), reg.Y1, reg.Y0, reg.Y0)
		c.VPBLENDD(operand.U8(0xAA), reg.Y3, reg.Y2, reg.Y2)
		c.VPUNPCKLQDQ(reg.Y2, reg.Y0, reg.Y4)
		c.VPUNPCKHQDQ(reg.Y2, reg.Y0, reg.Y5)
		c.VPOR(reg.Y5, reg.Y4, out)
	}
	// Low lanes of both, then high lanes of both, ORed: groups 0 to 3 in
	// the low lane, 4 to 7 in the high one.
	c.VPERM2I128(operand.U8(0x20), reg.Y9, reg.Y8, reg.Y4)
	c.VPERM2I128(operand.U8(0x31), reg.Y9, reg.Y8, reg.Y5)
	c.VPOR(reg.Y5, reg.Y4, reg.Y4)
	c.VPSHUFB(k.row(compact), reg.Y4, reg.Y4)
	c.VPERMD(reg.Y4, reg.Y12, reg.Y4)
	c.VMOVDQU(reg.X4, operand.Mem{Base: reg.RDI})
	c.VEXTRACTI128(operand.U8(1), reg.Y4, operand.Mem{Base: reg.RDI, Disp: 8})
	c.ADDQ(operand.U32(256), reg.RSI)
	c.ADDQ(operand.U32(24), reg.RDI)
	c.DECL(reg.ECX)
	c.JNE(operand.LabelRef("vector"))
	return 32, k
}
