package mldsa

// multiplyAccNTTGeneric is one row of MatrixVectorNTT (Algorithm 48):
// out = Σⱼ a[j] ∘ b[j], with every a[j] plain and b[j] in Montgomery form
// (the product is symmetric: one factor of each pair must be).
// Products are summed in 64 bits and reduced once: len(a) ≤ 8 keeps the
// sum below 8q² < q · 2³².
func multiplyAccNTTGeneric(out *ringElement, a, b []ringElement) {
	var acc [n256]uint64
	b = b[:len(a)]
	for j := range a {
		aj, bj := &a[j], &b[j]
		for i := range acc {
			acc[i] += uint64(aj[i]) * uint64(bj[i])
		}
	}
	for i := range out {
		out[i] = reduceOnce(montReduce(acc[i]))
	}
}
