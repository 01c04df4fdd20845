package contract

func init() { lazily(keccakx8Contracts) }

func keccakx8Contracts() {
	// The eight-way permutation, one state per 64-bit word of a zmm
	// register (EVEX.512): AVX512F, and AVX for its closing VZEROUPPER.
	keccakWideContract(8, "AVX512", "AVX512F", []string{"AVX", "AVX512F"})
}
