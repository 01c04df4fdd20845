package contract

import (
	"fmt"
)

// The rows of MatrixVectorNTT, one symbol per ℓ of ML-DSA-44, -65 and -87
// (FIPS 204, Table 1), all three in go/asm/nttmulacc_amd64.s: one routine
// of go/mldsa (multiplyAccNTT), one file stem.
func init() { lazily(nttmulaccContracts) }

func nttmulaccContracts() {
	for _, row := range []struct {
		l            int
		budget, sse2 float64
	}{{4, 30, 80}, {5, 35, 90}, {7, 45, 110}} {
		name := fmt.Sprintf("MultiplyAccNTT%dAVX2", row.l)
		c := productContract(name, row.l)
		c.Stem, c.GoName, c.Budget = "nttmulacc", "multiplyAccNTT", row.budget
		c.Doc = []string{
			name + " is one row of MatrixVectorNTT (FIPS 204, Algorithm 48,",
			fmt.Sprintf("lines 2 to 4) for ℓ = %d: out[i] = Σⱼ a[j][i]·b[j][i]·2⁻³² mod q in [0, q),", row.l),
			"for coefficients in [0, q); a or b holds the Montgomery forms. The",
			"buffers must not overlap. Straight-line code: no branch or address",
			"depends on the coefficients. Needs AVX2.",
		}
		register(c)

		name = fmt.Sprintf("MultiplyAccNTT%dAVX512", row.l)
		z := productContract(name, row.l)
		z.Stem, z.GoName, z.Budget = c.Stem, "multiplyAccNTT", row.budget
		avx512Product(z)
		z.Doc = []string{
			name + " is one row of MatrixVectorNTT (FIPS 204, Algorithm 48,",
			fmt.Sprintf("lines 2 to 4) for ℓ = %d: out[i] = Σⱼ a[j][i]·b[j][i]·2⁻³² mod q in [0, q),", row.l),
			"for coefficients in [0, q), sixteen at a time; a or b holds the",
			"Montgomery forms. The buffers must not overlap. Straight-line code:",
			"no branch or address depends on the coefficients. Needs AVX512F.",
		}
		register(z)

		name = fmt.Sprintf("MultiplyAccNTT%dAMD64", row.l)
		b := productContract(name, row.l)
		b.Stem, b.GoName, b.Budget = c.Stem, "multiplyAccNTT", row.sse2
		baselineSSE2(b)
		b.Doc = []string{
			name + " is one row of MatrixVectorNTT (FIPS 204, Algorithm 48,",
			fmt.Sprintf("lines 2 to 4) for ℓ = %d in SSE2: out[i] = Σⱼ a[j][i]·b[j][i]·2⁻³² mod q", row.l),
			"in [0, q), for coefficients in [0, q); a or b holds the Montgomery",
			"forms. The buffers must not overlap. PMULUDQ runs inside Intel's MCDT",
			"bracket (MXCSR = 0x1FBF). Straight-line code: no branch or address",
			"depends on the coefficients.",
		}
		register(b)
	}
}
