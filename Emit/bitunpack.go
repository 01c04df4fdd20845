package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func init() { register("bitunpack", buildBitUnpack) }

// buildBitUnpack emits SimpleBitUnpack and BitUnpack (FIPS 204, Algorithms
// 18 and 19) for t1, η, t0 and z; see bitpack.go for the layout.
func buildBitUnpack(c *build.Context) {
	for _, p := range append([]packing{simplePackings[2]}, signedPackings...) {
		for _, avx2 := range []bool{true, false} {
			name := p.name("BitUnpack") + suffix(avx2)
			n := 32 * p.width
			sig := fmt.Sprintf("func(w *[256]uint32, v *[%d]byte)", n)
			what := fmt.Sprintf("SimpleBitUnpack(v, 2^%d − 1) (FIPS 204, Algorithm 18).", p.width)
			if p.signed {
				what = fmt.Sprintf("BitUnpack(v, a, %d) (FIPS 204, Algorithm 19), mod q.", p.b)
			}
			doc := []string{name + " sets w to " + what}
			if p.checked {
				sig = fmt.Sprintf("func(w *[256]uint32, v *[%d]byte, bad *uint32)", n)
				doc = append(doc, fmt.Sprintf("It sets *bad to 1 if a packed value exceeds %d (a coefficient below", p.max),
					fmt.Sprintf("−%d), else to 0.", p.max/2))
			}
			c.Function(name)
			c.SignatureExpr(sig)
			c.Doc(append(doc, variantDoc(avx2))...)
			c.Pragma("noescape")
			c.Load(c.Param("w"), reg.RSI)
			c.Load(c.Param("v"), reg.RDI)
			var frame operand.Mem
			if p.checked {
				c.Load(c.Param("bad"), reg.R13)
				c.XORL(reg.R10L, reg.R10L)
				if avx2 {
					frame = c.AllocLocal(32)
				}
			}
			first, k := 0, (*table)(nil)
			switch {
			case avx2 && p.width == 4:
				first, k = avx2Unpack4(c, p, name, frame)
			case avx2:
				first, k = avx2Unpack(c, p, name, frame)
			}
			if first < 32 {
				gprBlocks(c, p, first, func(g int) { gprUnpackBlock(c, p, g) })
			}
			if p.checked {
				// R10's top bit is set if some value exceeded max; R12
				// holds the vector groups' lanes.
				c.SHRL(operand.U8(31), reg.R10L)
				if avx2 {
					c.ORQ(reg.R12, reg.R10)
				}
				gprFlag(c, reg.R10, reg.RCX, reg.R13)
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

// gprUnpackBlock unpacks the 4w bytes at RDI + 4w·g into the 32 words at
// RSI + 128g: 32-bit words enter RAX, and each coefficient leaves as its
// low w bits.
func gprUnpackBlock(c *build.Context, p packing, g int) {
	in, out := 4*p.width*g, 128*g
	nb, o := 0, 0
	for j := 0; j < 32; j++ {
		if nb < p.width {
			src := operand.Mem{Base: reg.RDI, Disp: in + o}
			if nb == 0 {
				c.MOVL(src, reg.EAX)
			} else {
				c.MOVL(src, reg.EDX)
				c.SHLQ(operand.U8(nb), reg.RDX)
				c.ORQ(reg.RDX, reg.RAX)
			}
			o += 4
			nb += 32
		}
		c.MOVL(reg.EAX, reg.EDX)
		c.ANDL(operand.U32(1<<p.width-1), reg.EDX)
		if p.checked {
			c.MOVL(operand.U32(p.max), reg.R11L)
			c.SUBL(reg.EDX, reg.R11L)
			c.ORL(reg.R11L, reg.R10L)
		}
		if p.signed {
			gprSigned(c, p.b, reg.EDX, reg.RBX)
		}
		c.MOVL(reg.EDX, operand.Mem{Base: reg.RSI, Disp: out + 4*j})
		nb -= p.width
		if nb > 0 {
			c.SHRQ(operand.U8(p.width), reg.RAX)
		}
	}
}

// avx2Unpack emits the vector part of an unpacking, one group an
// iteration while a group's two 16-byte loads stay inside the encoding,
// then the last groups one by one with each load moved back to end at the
// encoding's end (the shuffle reads the group's bytes where they then
// are), so that no group is left to the baseline code but an η decoder's
// last blocks. It returns the first group left to the baseline code and
// the constants to emit after the routine. For a checked unpacking it leaves in R12 a nonzero
// word if a lane exceeded max.
func avx2Unpack(c *build.Context, p packing, name string, frame operand.Mem) (int, *table) {
	k := newTable(c, constName(name))
	n := 32 * p.width
	off4 := p.byteOff(4)
	groups := 0
	for groups < 32 && groups*p.width+off4+16 <= n {
		groups++
	}
	last := 32 // the first group left to the baseline code
	if p.checked {
		// The η decoders leave their last blocks to the baseline code,
		// whole blocks of four groups.
		groups -= groups % 4
		last = groups
	}
	// shuffle is the VPSHUFB row for group g with its low lane loaded at
	// byte low and its high lane at byte high: dword j gets the four bytes
	// from coefficient j's first, 0 (index 0x80) for those past the end,
	// which no coefficient needs.
	shuffle := func(g, low, high int) [32]byte {
		var shuf [32]byte
		for j := 0; j < 8; j++ {
			base, lane := low, 0
			if j >= 4 {
				base, lane = high, 16
			}
			for t := 0; t < 4; t++ {
				i := p.width*g + p.byteOff(j) + t - base
				switch {
				case i >= 0 && i < 16 && p.width*g+p.byteOff(j)+t < n:
					shuf[lane+4*(j%4)+t] = byte(i)
				case t < p.span(j):
					panic(fmt.Sprintf("%s: group %d, coefficient %d: byte %d outside its lane's load", name, g, j, t))
				default:
					shuf[lane+4*(j%4)+t] = 0x80
				}
			}
		}
		return shuf
	}
	var shifts [8]uint32
	for j := range shifts {
		shifts[j] = uint32(p.bitOff(j))
	}
	// The constants of the loop stay in registers: as memory operands
	// they made the loads the bottleneck.
	c.VMOVDQU(k.bcast(1<<p.width-1), reg.Y13)
	c.VMOVDQU(k.dwords(shifts), reg.Y12)
	c.VMOVDQU(k.row(shuffle(0, 0, off4)), reg.Y11)
	if p.signed {
		c.VMOVDQU(k.bcast(p.b), reg.Y14)
		c.VMOVDQU(k.bcast(mldsaQ), reg.Y10)
	}
	if p.checked {
		c.VMOVDQU(k.bcast(p.max), reg.Y8)
		c.VPXOR(reg.Y9, reg.Y9, reg.Y9)
	}
	// group unpacks the group whose bytes low and high load into the
	// 32 words at out.
	group := func(low, high operand.Mem, shuf operand.Op, out operand.Mem) {
		c.VMOVDQU(low, reg.X0)
		c.VINSERTI128(operand.U8(1), high, reg.Y0, reg.Y0)
		c.VPSHUFB(shuf, reg.Y0, reg.Y0)
		c.VPSRLVD(reg.Y12, reg.Y0, reg.Y0)
		c.VPAND(reg.Y13, reg.Y0, reg.Y0)
		if p.checked {
			c.VPCMPGTD(reg.Y8, reg.Y0, reg.Y1)
			c.VPOR(reg.Y1, reg.Y9, reg.Y9)
		}
		if p.signed {
			// b − x mod q: of b − x and b − x + q, the smaller as
			// unsigned words (b − x < 0 wraps above b − x + q).
			c.VPSUBD(reg.Y0, reg.Y14, reg.Y0)
			c.VPADDD(reg.Y10, reg.Y0, reg.Y1)
			c.VPMINUD(reg.Y1, reg.Y0, reg.Y0)
		}
		c.VMOVDQU(reg.Y0, out)
	}
	// Two groups an iteration, which halves the loop's own instructions;
	// an odd group left goes to the groups after the loop.
	c.MOVL(operand.U32(groups/2), reg.ECX)
	c.Label("vector")
	for u := 0; u < 2; u++ {
		group(operand.Mem{Base: reg.RDI, Disp: p.width * u}, operand.Mem{Base: reg.RDI, Disp: p.width*u + off4}, reg.Y11,
			operand.Mem{Base: reg.RSI, Disp: 32 * u})
	}
	p.advance(c, 2)
	c.DECL(reg.ECX)
	c.JNE(operand.LabelRef("vector"))
	groups -= groups % 2
	// RDI and RSI now point at group groups.
	for g := groups; g < last; g++ {
		low, high := min(p.width*g, n-16), min(p.width*g+off4, n-16)
		at := p.width * groups
		group(operand.Mem{Base: reg.RDI, Disp: low - at}, operand.Mem{Base: reg.RDI, Disp: high - at},
			k.row(shuffle(g, low, high)), operand.Mem{Base: reg.RSI, Disp: 32 * (g - groups)})
	}
	if p.checked {
		c.VMOVDQU(reg.Y9, frame)
		c.MOVQ(frame, reg.R12)
		for off := 8; off < 32; off += 8 {
			c.ORQ(frame.Offset(off), reg.R12)
		}
	}
	return last, k
}

// avx2Unpack4 emits the whole of a 4-bit unpacking (η = 4), four groups
// (16 bytes, 32 coefficients) an iteration and no baseline tail: each
// group's word is broadcast to the eight lanes (VPBROADCASTD), and lane j
// keeps bits 4j to 4j + 3 (VPSRLVD, VPAND). For a checked unpacking it
// leaves in R12 a nonzero word if a lane exceeded max, as avx2Unpack.
func avx2Unpack4(c *build.Context, p packing, name string, frame operand.Mem) (int, *table) {
	k := newTable(c, constName(name))
	var shifts [8]uint32
	for j := range shifts {
		shifts[j] = uint32(4 * j)
	}
	c.VMOVDQU(k.bcast(1<<p.width-1), reg.Y13)
	if p.signed {
		c.VMOVDQU(k.bcast(p.b), reg.Y14)
	}
	if p.checked {
		c.VPXOR(reg.Y9, reg.Y9, reg.Y9)
	}
	c.MOVL(operand.U32(8), reg.ECX)
	c.Label("vector")
	for g := 0; g < 4; g++ {
		c.VPBROADCASTD(operand.Mem{Base: reg.RDI, Disp: 4 * g}, reg.Y0)
		c.VPSRLVD(k.dwords(shifts), reg.Y0, reg.Y0)
		c.VPAND(reg.Y13, reg.Y0, reg.Y0)
		if p.checked {
			c.VPCMPGTD(k.bcast(p.max), reg.Y0, reg.Y1)
			c.VPOR(reg.Y1, reg.Y9, reg.Y9)
		}
		if p.signed {
			avx2Signed(c, k, reg.Y0, reg.Y1)
		}
		c.VMOVDQU(reg.Y0, operand.Mem{Base: reg.RSI, Disp: 32 * g})
	}
	p.advance(c, 4)
	c.DECL(reg.ECX)
	c.JNE(operand.LabelRef("vector"))
	if p.checked {
		c.VMOVDQU(reg.Y9, frame)
		c.MOVQ(frame, reg.R12)
		for off := 8; off < 32; off += 8 {
			c.ORQ(frame.Offset(off), reg.R12)
		}
	}
	return 32, k
}
