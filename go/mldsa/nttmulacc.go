package mldsa

// multiplyAccNTTGeneric is one row of MatrixVectorNTT (Algorithm 48):
// out = Σⱼ a[j] ∘ b[j], with every a[j] plain and b[j] in Montgomery form
// (the product is symmetric: one factor of each pair must be).
// Products are summed in 64 bits and reduced once: len(a) ≤ 8 keeps the
// sum below 8q² < q · 2³². The terms go two at a time over the sums, the
// first pair setting them and the last one or two reducing them.
func multiplyAccNTTGeneric(out *ringElement, a, b []ringElement) {
	b = b[:len(a)]
	if len(a) == 1 {
		for i := range out {
			out[i] = montMul(uint32(a[0][i]), uint32(b[0][i]))
		}
		return
	}
	var acc [n256]uint64
	a0, b0, a1, b1 := &a[0], &b[0], &a[1], &b[1]
	for i := range acc {
		acc[i] = uint64(a0[i])*uint64(b0[i]) + uint64(a1[i])*uint64(b1[i])
	}
	j := 2
	for ; len(a)-j > 2; j += 2 {
		a0, b0, a1, b1 := &a[j], &b[j], &a[j+1], &b[j+1]
		for i := range acc {
			acc[i] += uint64(a0[i])*uint64(b0[i]) + uint64(a1[i])*uint64(b1[i])
		}
	}
	switch len(a) - j {
	case 0:
		for i := range out {
			out[i] = reduceOnce(montReduce(acc[i]))
		}
	case 1:
		a0, b0 := &a[j], &b[j]
		for i := range out {
			out[i] = reduceOnce(montReduce(acc[i] + uint64(a0[i])*uint64(b0[i])))
		}
	case 2:
		a0, b0, a1, b1 := &a[j], &b[j], &a[j+1], &b[j+1]
		for i := range out {
			out[i] = reduceOnce(montReduce(acc[i] + uint64(a0[i])*uint64(b0[i]) + uint64(a1[i])*uint64(b1[i])))
		}
	}
}
