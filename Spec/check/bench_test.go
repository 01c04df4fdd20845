package check

import (
	"os"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

func BenchmarkFunctional(b *testing.B) {
	for _, name := range []string{"keccak_amd64.s", "rejnttpoly_amd64.s", "keccakx4_amd64.s", "rejnttpolyx4_amd64.s"} {
		src, _ := os.ReadFile("../../go/asm/" + name)
		f, err := x86.ParseFile(name, string(src))
		if err != nil {
			b.Fatal(err)
		}
		r := f.Routines[0]
		c := contract.Lookup(r.Name)
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := functional(f, r, c, Options{Runs: 1, MaxSteps: 1 << 22}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
