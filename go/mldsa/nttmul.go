package mldsa

// multiplyNTTGeneric is MultiplyNTT (Algorithm 45): out = a ∘ b, with a in
// Montgomery form and b plain; out is plain, in [0, q).
func multiplyNTTGeneric(out, a, b *ringElement) {
	for i := range out {
		out[i] = montMul(uint32(a[i]), uint32(b[i]))
	}
}
