package contract

func init() { lazily(rejnttpolyx8Contracts) }

func rejnttpolyx8Contracts() {
	// Eight samples per squeeze, calling the eight-way permutation; the
	// rejection itself is the AVX2 code of the four-way routine.
	rejNTTPolyWideContract(8, "AVX512", "AVX2 and AVX512F.", []string{"AVX", "AVX2", "AVX512F"})
}
