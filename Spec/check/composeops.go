package check

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// The Ops of the composition proof that read bytes (ExpandA,
// RejBoundedPoly) or pack signed coefficients (BitPack), each checked
// against the callee's proven postcondition before it is used.

// seededOps are the Ops whose inputs are seed bytes, not polynomials.
var seededOps = map[string]bool{"ExpandA": true, "RejBoundedPoly": true, "BitUnpack": true, "HintBitUnpack": true, "SampleInBall": true, "ExpandMask": true}

// seedCall is a call of a sampler: its Op, the bytes of its seeds back to
// back (as the Op's In buffers hold them) and its output polynomials.
type seedCall struct {
	op   *contract.Op
	seed []*x86.Term
	outs []*poly
	ok   *x86.Term // its result bit (the constant 0 for a callee without)
}

// writtenBytes is the size of the buffer name the callee writes (0 if
// none), an Indirect argument's buffers named as Arg.BufferNames does.
func writtenBytes(cc *contract.Contract, name string) int {
	for _, a := range cc.Args {
		for _, bn := range a.BufferNames() {
			if bn == name && a.Write {
				return a.Bytes
			}
		}
	}
	return 0
}

// readBytes is the size of the buffer name the callee reads (0 if none).
func readBytes(cc *contract.Contract, name string) int {
	for _, a := range cc.Args {
		if a.Name == name && a.Read && a.Indirect == 0 {
			return a.Bytes
		}
	}
	return 0
}

// centered is word w (in [0, q)) read in (−q/2, q/2].
func centered(w uint32) int64 {
	if w > fips204.Q/2 {
		return int64(w) - fips204.Q
	}
	return int64(w)
}

// ExpandA is the entries of the routine's ExpandA call on ρ, row r
// holding entries ℓr … ℓr + ℓ − 1.
func (o *termOps) ExpandA(rho []any) [][]any {
	a := make([][]any, o.p.K)
	sc, _ := o.sampled("ExpandA", rho, o.p.K, o.p.L)
	for r := range a {
		a[r] = make([]any, o.p.L)
		for s := range a[r] {
			a[r][s] = &poly{name: "none"}
			if sc != nil && len(sc.outs) == o.p.K*o.p.L {
				p := sc.outs[o.p.L*r+s]
				a[r][s] = &poly{name: p.name, lin: p.lin}
			}
		}
	}
	return a
}

// RejBoundedPoly is the polynomial of the routine's sampler call that
// got seed.
func (o *termOps) RejBoundedPoly(seed []any) any {
	sc, j := o.sampled("RejBoundedPoly", seed, o.p.Eta)
	if sc == nil {
		return &poly{name: "none"}
	}
	p := sc.outs[j]
	return &poly{name: p.name, lin: p.lin}
}

// sampled finds the routine's call of sampler name (of params) one of
// whose seeds is seed, byte for byte (term identity; else, unless both
// are constants, SAT), and which of its seeds it is: a call of
// RejBoundedPoly or ExpandMask has one seed per output polynomial, in
// equal parts of its bytes; one of ExpandA one.
func (o *termOps) sampled(name string, seed []any, params ...int) (*seedCall, int) {
	if o.err != nil {
		return nil, 0
	}
	mask := o.s.Const(0xff)
	same := func(got []*x86.Term) bool {
		for i, t := range got {
			a, b := o.s.And(t, mask), o.s.And(seed[i].(*x86.Term), mask)
			if a == b {
				continue
			}
			x, xok := o.s.Concrete(a)
			y, yok := o.s.Concrete(b)
			if xok && yok && x != y {
				return false
			}
			if o.same(a, b) != nil {
				return false
			}
		}
		return true
	}
	for _, sc := range o.seeded {
		if sc.op.Name != name || fmt.Sprint(sc.op.Params) != fmt.Sprint(params) {
			continue
		}
		parts := 1
		if name == "RejBoundedPoly" || name == "ExpandMask" {
			parts = len(sc.outs)
		}
		n := len(seed)
		if n == 0 || len(sc.seed) != parts*n {
			continue
		}
		for j := 0; j < parts; j++ {
			if same(sc.seed[n*j : n*j+n]) {
				return sc, j
			}
		}
	}
	o.fail("the steps of Spec apply %s%v to a seed of %d bytes that no call of the routine got", name, params, len(seed))
	return nil, 0
}

// checkExpandAOp checks an ExpandA Op: the callee's ExpandA proof
// (expandaproof.go) establishes, for k × ℓ, entry e of a is RejNTTPoly(ρ
// ‖ e mod ℓ ‖ e div ℓ) (of the samplers' proven contracts) when it
// returns 1; the Op must state that shape for the steps' parameter set,
// and Spec's ExpandA must be it (Algorithm 32, lines 3 and 4; run on one
// ρ). The entries' words are RejNTTPoly's coefficients, in [0, q).
func checkExpandAOp(cc *contract.Contract, p fips204.Params) ([]dom, error) {
	op, sh := cc.Op, cc.ExpandA
	if sh == nil || cc.Result != "bool" || fmt.Sprint(op.In) != "[rho]" || fmt.Sprint(op.Out) != "[a]" || len(op.Params) != 2 || op.Params[0] != sh.K || op.Params[1] != sh.L {
		return nil, fmt.Errorf("%s: its Op is not its ExpandA proof's", cc.Symbol)
	}
	if sh.K != p.K || sh.L != p.L {
		return nil, fmt.Errorf("%s: Â of %d × %d, the steps' parameter set has %d × %d", cc.Symbol, sh.K, sh.L, p.K, p.L)
	}
	if readBytes(cc, "rho") != 32 || writtenBytes(cc, "a") != 1024*sh.K*sh.L {
		return nil, fmt.Errorf("%s: rho or a is not of 32 bytes or k·ℓ polynomials", cc.Symbol)
	}
	key := fmt.Sprintf("%s/%v", cc.Symbol, *op)
	if _, ok := checkedOps.Load(key); !ok {
		rho := make([]byte, 32)
		for i := range rho {
			rho[i] = byte(37*i + 11)
		}
		a := fips204.ExpandA(p, rho)
		for e := 0; e < sh.K*sh.L; e++ {
			seed := append(append([]byte{}, rho...), byte(e%sh.L), byte(e/sh.L))
			if fips204.RejNTTPoly(seed) != a[e/sh.L][e%sh.L] {
				return nil, fmt.Errorf("%s: Spec's ExpandA entry (%d, %d) is not RejNTTPoly(ρ ‖ %d ‖ %d)", cc.Symbol, e/sh.L, e%sh.L, e%sh.L, e/sh.L)
			}
		}
		checkedOps.Store(key, true)
	}
	return []dom{fullDom}, nil
}

// checkBoundedOp checks a RejBoundedPoly Op: the callee's Streams proof
// (rejproof.go) establishes, for every stream, that polynomial j meets
// Streams.Check on stream j when it returns 1, and that stream j is
// SHAKE256 of part j of Sponge.Seed (then of Nonce). The Op's inputs must
// be those buffers, its η the steps', the Streams' CoeffFromHalfByte
// Spec's (Algorithm 15) on all 16 half-bytes, and its Check Spec's
// RejBoundedPolyFrom (Algorithm 31) mod q for η on every output buffer:
// it accepts Spec's polynomials from a stream and rejects them with one
// coefficient changed. The words are then x mod q for x in the
// accepted values' range.
func checkBoundedOp(cc *contract.Contract, p fips204.Params) ([]dom, error) {
	op, st := cc.Op, cc.Streams
	if st == nil || st.Sponge == nil || !st.Proven || st.HalfByteBound == 0 || st.CoeffFromHalfByte == nil || st.Sponge.Rate != fips202.Rate256 ||
		cc.Result != "bool" || len(op.Params) != 1 || st.Polys != len(op.Out) || st.Polys == 0 {
		return nil, fmt.Errorf("%s: its Op is not its proven Streams'", cc.Symbol)
	}
	if op.Params[0] != p.Eta {
		return nil, fmt.Errorf("%s: η = %d, the steps' parameter set has η = %d", cc.Symbol, op.Params[0], p.Eta)
	}
	in := []string{st.Sponge.Seed}
	if st.Sponge.Nonce != "" {
		in = append(in, st.Sponge.Nonce)
		if st.Polys != 1 {
			// Seed and nonce parts interleave, not the Op's bytes back to back.
			return nil, fmt.Errorf("%s: a nonce buffer for %d polynomials", cc.Symbol, st.Polys)
		}
	}
	n := 0
	for _, name := range in {
		n += readBytes(cc, name)
	}
	if fmt.Sprint(in) != fmt.Sprint(op.In) || n != 66*st.Polys {
		return nil, fmt.Errorf("%s: its Op reads %v, its Streams absorb %v (%d bytes, not 66 a polynomial)", cc.Symbol, op.In, in, n)
	}
	out := dom{fips204.Q, -fips204.Q}
	for b := byte(0); b < 16; b++ {
		got, gok := st.CoeffFromHalfByte(b)
		want, wok := fips204.CoeffFromHalfByte(p, b)
		if gok != wok || gok && got != want || gok != (int(b) < st.HalfByteBound) {
			return nil, fmt.Errorf("%s: CoeffFromHalfByte(%d) is (%d, %v), Spec's for η = %d (%d, %v)", cc.Symbol, b, got, gok, p.Eta, want, wok)
		}
		if gok {
			out = dom{min(out.lo, int64(got)), max(out.hi, int64(got))}
		}
	}
	key := fmt.Sprintf("%s/%v/%p", cc.Symbol, *op, st)
	if _, ok := checkedOps.Load(key); !ok {
		streams := make([][]byte, st.Polys)
		o := contract.Buffers{}
		for j := range streams {
			streams[j] = make([]byte, st.Blocks*st.BlockBytes)
			h := fips202.NewSHAKE256()
			h.Write([]byte{byte(j), 0x5a})
			h.Read(streams[j])
			k := 0
			w := fips204.RejBoundedPolyFrom(p, func(s []byte) {
				for i := range s {
					s[i] = 0
					if k < len(streams[j]) {
						s[i] = streams[j][k]
					}
					k++
				}
			})
			if k > len(streams[j]) {
				return nil, fmt.Errorf("%s: the sample stream runs out", cc.Symbol)
			}
			o[op.Out[j]] = make([]byte, 1024)
			for i, x := range w {
				binary.LittleEndian.PutUint32(o[op.Out[j]][4*i:], uint32((x+fips204.Q)%fips204.Q))
			}
		}
		if err := st.Check(streams, o, 1); err != nil {
			return nil, fmt.Errorf("%s: its Check rejects Spec's RejBoundedPoly for η = %d: %v", cc.Symbol, p.Eta, err)
		}
		for j := range streams {
			o[op.Out[j]][20]++
			if st.Check(streams, o, 1) == nil {
				return nil, fmt.Errorf("%s: its Check accepts polynomial %d with a changed coefficient", cc.Symbol, j)
			}
			o[op.Out[j]][20]--
		}
		checkedOps.Store(key, true)
	}
	return []dom{out}, nil
}

// checkBitPackOp checks a BitPack Op (Algorithm 17) on words of range d:
// the callee's Packed proof (packproof.go) establishes that bits W·i to
// W·i + W − 1 of the bytes, least significant first, are Map's field i for
// words of its Domain. The range must lie in [−a, b], every word of
// [−a, b] mod q in the Domain, W = bitlen(a + b), and Map give field b − x
// for each such word x (on the polynomial of 256 equal words); and Spec's
// BitPack must place fields there: on 256 fields 0 it gives zeros, and on
// field 2^j at coefficient i (others 0) bit W·i + j alone.
func checkBitPackOp(cc *contract.Contract, d dom) error {
	op, pk := cc.Op, cc.Packed
	if pk == nil || !pk.Pack || pk.Map == nil || len(op.In) != 1 || len(op.Out) != 1 || pk.Words != op.In[0] || pk.Bytes != op.Out[0] || len(op.Params) != 2 {
		return fmt.Errorf("%s: its Op is not its Packed map's", cc.Symbol)
	}
	a, b := op.Params[0], op.Params[1]
	W := bits.Len(uint(a + b))
	if a < 0 || b < 0 || a+b < 1 || a+b >= fips204.Q/2 || pk.Width != W {
		return fmt.Errorf("%s: BitPack(·, %d, %d) in fields of %d bits, bitlen(a + b) = %d", cc.Symbol, a, b, pk.Width, W)
	}
	if d.lo < int64(-a) || d.hi > int64(b) || d.lo > d.hi {
		return fmt.Errorf("%s: words of [%d, %d] mod q, BitPack(·, %d, %d) takes them in [−%d, %d]", cc.Symbol, d.lo, d.hi, a, b, a, b)
	}
	key := fmt.Sprintf("%s/%v/%p", cc.Symbol, *op, pk)
	if v, ok := checkedOps.Load(key); ok {
		if v != nil {
			return v.(error)
		}
		return nil
	}
	err := func() error {
		inDomain := map[uint32]bool{}
		for _, w := range pk.Domain {
			inDomain[w] = true
		}
		// 256 words a call: Map's field i is of word i (the Packed proof
		// evaluates it so, packExhaust).
		for x0 := -a; x0 <= b; x0 += 256 {
			var in [256]uint32
			for i := range in {
				x := min(x0+i, b)
				in[i] = uint32((x + fips204.Q) % fips204.Q)
				if !inDomain[in[i]] {
					return fmt.Errorf("%s: %d mod q is not in its Packed Domain", cc.Symbol, x)
				}
			}
			for i, f := range pk.Map(&in) {
				if x := min(x0+i, b); f != uint32(b-x) {
					return fmt.Errorf("%s: its Map gives field %d for word %d (%d) at %d, Spec's b − w is %d", cc.Symbol, f, in[i], x, i, b-x)
				}
			}
		}
		var all fips204.Poly
		for i := range all {
			all[i] = int32(b)
		}
		if z := fips204.BitPack(all, a, b); len(z) != 32*W || !allZero(z) {
			return fmt.Errorf("%s: Spec's BitPack of 256 fields 0 is not %d zero bytes", cc.Symbol, 32*W)
		}
		for i := 0; i < 256; i++ {
			for j := 0; j < W; j++ {
				e := all
				e[i] = int32(b - 1<<j)
				out := fips204.BitPack(e, a, b)
				for k := range out {
					want := byte(0)
					if k == (W*i+j)/8 {
						want = 1 << ((W*i + j) % 8)
					}
					if out[k] != want {
						return fmt.Errorf("%s: Spec's BitPack of field 2^%d at coefficient %d gives byte %d = %#02x, not bit %d alone", cc.Symbol, j, i, k, out[k], W*i+j)
					}
				}
			}
		}
		return nil
	}()
	checkedOps.Store(key, err)
	return err
}
