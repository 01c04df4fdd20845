package check

import (
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// proveZq proves a routine whose contract is a map over ℤq (contract.ZqMap)
// for every input meeting the precondition:
//
//  1. One run on the domain of zqdomain.go, from a state where every input
//     coefficient is its own variable in [0, q) and everything else the
//     contract leaves open is unknown, gives for every output word an
//     integer X with its interval and X mod q as a polynomial in the
//     inputs. The caller has established that control flow and addresses
//     do not depend on the input (taint), so this one run is every run.
//  2. Each output's interval must lie in [0, q): the word is X itself, the
//     canonical representative, and no lane on the way overflowed in a way
//     that matters (an overflow would have made X unknown or its interval
//     too wide).
//  3. Each output's polynomial must equal the map Spec computes, recovered
//     from the contract's Want on basis vectors (or pairs of them).
func proveZq(f *x86.File, r *x86.Routine, c *contract.Contract, maxSteps int) (string, error) {
	zm := c.Zq
	d, m, in, base, err := zqMachine(f, r, c)
	if err != nil {
		return "", err
	}
	if err := m.Run(maxSteps); err != nil {
		return "", err
	}
	want, nPoints, err := zqSpec(zm, in, base)
	if err != nil {
		return "", err
	}
	out := m.Region(zm.Out)
	for i := 0; i < out.Size()/4; i++ {
		x := d.group(out.Bytes[4*i : 4*i+4])
		switch {
		case x == nil:
			return "", fmt.Errorf("output word %d: not a known value of the inputs", i)
		case x.lo < 0 || x.hi >= int64(qMod):
			return "", fmt.Errorf("output word %d: only known to lie in [%d, %d], not in [0, q)", i, x.lo, x.hi)
		case !x.qok:
			return "", fmt.Errorf("output word %d: its value mod q is not determined", i)
		case !qequal(x.q, want[i]):
			return "", fmt.Errorf("output word %d: the routine computes %s, Spec %s", i, showForm(x.q), showForm(want[i]))
		}
	}
	kind := "linear map"
	if zm.Bilinear {
		kind = "bilinear map"
	}
	return fmt.Sprintf("for every input with coefficients in [0, q): each of the %d output words lies in [0, q) and equals, mod q, the %s Spec computes (recovered from %d evaluations of Spec on basis vectors); %d signed readings of a wrapped lane (Montgomery quotients), %d exact divisions by 2³²",
		out.Size()/4, kind, nPoints, d.wraps, d.exact), nil
}

// zqSpec recovers Spec's map from Want. The buffers in are zero on entry
// and left zero.
func zqSpec(zm *contract.ZqMap, in contract.Buffers, base map[string]int) ([]qform, int, error) {
	set := func(name string, k int, v uint32) {
		b := in[name]
		b[4*k], b[4*k+1], b[4*k+2], b[4*k+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	zero := zm.Want(in)
	n := len(zero)
	acc := make([]map[uint64]uint64, n)
	for i := range acc {
		acc[i] = map[uint64]uint64{}
	}
	add := func(k uint64, got []uint32, sub []uint32) {
		for i, v := range got {
			c := uint64(v) % qMod
			if sub != nil {
				c = (c + qMod - uint64(sub[i])%qMod) % qMod
			}
			if c != 0 {
				acc[i][k] = c
			}
		}
	}
	points := 1
	if !zm.Bilinear {
		add(0, zero, nil)
		for _, name := range zm.In {
			for k := 0; k < len(in[name])/4; k++ {
				set(name, k, 1)
				add(uint64(base[name]+k)+1, zm.Want(in), zero)
				set(name, k, 0)
				points++
			}
		}
	} else {
		if len(zm.In) != 2 {
			return nil, 0, fmt.Errorf("a bilinear map needs two input buffers")
		}
		a, b := zm.In[0], zm.In[1]
		na, nb := len(in[a])/4, len(in[b])/4
		for u := 0; u < na; u++ {
			set(a, u, 1)
			for v := 0; v < nb; v++ {
				if zm.PerPosition && u%256 != v%256 {
					continue
				}
				set(b, v, 1)
				ku, kv := uint64(base[a]+u)+1, uint64(base[b]+v)+1
				add(min(ku, kv)<<32|max(ku, kv), zm.Want(in), nil)
				set(b, v, 0)
				points++
			}
			set(a, u, 0)
		}
	}
	forms := make([]qform, n)
	for i, m := range acc {
		f := qform{}
		for k, c := range m {
			f = append(f, qterm{k, uint32(c)})
		}
		sort.Slice(f, func(i, j int) bool { return f[i].k < f[j].k })
		forms[i] = f
	}
	return forms, points, nil
}

// showForm prints the first terms of a form.
func showForm(f qform) string {
	s := ""
	for i, t := range f {
		if i == 4 {
			return s + fmt.Sprintf(" + … (%d terms)", len(f))
		}
		if i > 0 {
			s += " + "
		}
		switch degree(t.k) {
		case 0:
			s += fmt.Sprint(t.c)
		case 1:
			s += fmt.Sprintf("%d·x%d", t.c, t.k-1)
		default:
			s += fmt.Sprintf("%d·x%d·x%d", t.c, t.k>>32-1, t.k&0xffffffff-1)
		}
	}
	if s == "" {
		return "0"
	}
	return s
}

// zqMachine sets up the run of proveZq: every coefficient of the buffers
// zm.In is a variable in [0, q), numbered across the buffers in order
// (base gives each buffer's first); in holds zeroed buffers for Want.
func zqMachine(f *x86.File, r *x86.Routine, c *contract.Contract) (*zdom, *x86.Machine[*zw], contract.Buffers, map[string]int, error) {
	zm := c.Zq
	d := &zdom{}
	mk := func(v uint64, secret, input bool) *zw {
		if secret || input {
			return unknownWord
		}
		return d.Const(v)
	}
	in := contract.Buffers{}
	for _, a := range c.Args {
		for _, bn := range a.BufferNames() {
			in[bn] = make([]byte, a.Bytes)
		}
	}
	m, _ := setup[*zw](d, mk, f, r, c, in, rand.New(rand.NewPCG(1, 1)))
	// The input coefficients, numbered across zm.In in order.
	base := map[string]int{}
	nvars := 0
	for _, name := range zm.In {
		reg := m.Region(name)
		if reg == nil {
			return nil, nil, nil, nil, fmt.Errorf("contract names buffer %q, which the routine does not have", name)
		}
		base[name] = nvars
		n := reg.Size() / 4
		for p := 0; p+1 < n; p += 2 {
			var x [2]*zint
			for j := range x {
				u := uint64(nvars + p + j)
				x[j] = d.atom(0, int64(qMod)-1)
				x[j].q, x[j].qok = qform{{u + 1, 1}}, true
			}
			d.Bytes(lanes(x[0], x[1]), reg.Bytes[4*p:4*p+8])
		}
		nvars += n
	}
	return d, m, in, base, nil
}
