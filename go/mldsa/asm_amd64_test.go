//go:build amd64 && !purego

package mldsa

import (
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips202"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
	"github.com/vg-crypto/vg/go/asm"
	"github.com/vg-crypto/vg/internal/vectors"
)

// Differential tests of the assembly in go/asm against the generic Go code
// and against Spec. AVX2 variants run whenever the CPU has AVX2, whatever
// useAVX2 says (VG_CPU_FEATURES=none only changes the dispatch).

// asmIterations is the number of random inputs per routine.
func asmIterations() int {
	if testing.Short() {
		return 1000
	}
	return 10000
}

// needAVX2 skips a test on a CPU without AVX2; on one with it the test runs.
func needAVX2(t *testing.T) {
	t.Helper()
	if !cpu.X86.HasAVX2 {
		t.Skip("this CPU has no AVX2: the AVX2 variants cannot run here")
	}
}

func randomLanes(rng *rand.Rand, a []uint64) {
	for i := range a {
		a[i] = rng.Uint64()
	}
}

func randomSeed(rng *rand.Rand, s *[34]byte) {
	for i := range s {
		s[i] = byte(rng.Uint32())
	}
}

func TestKeccakF1600AMD64(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 1))
	var a [25]uint64 // all zero first: the permutation of 0 is a classic test
	for iter := 0; iter < asmIterations(); iter++ {
		got, generic, spec := a, a, a
		asm.KeccakF1600AMD64(&got)
		keccakF1600Generic(&generic)
		fips202.KeccakF1600(&spec)
		if got != spec || generic != spec {
			t.Fatalf("input %x:\nasm     %x\ngeneric %x\nspec    %x", a, got, generic, spec)
		}
		randomLanes(rng, a[:])
	}
}

// TestKeccakF1600x4Asm checks the four-way permutations (AVX2 where the
// CPU has it, and the baseline one) against the generic code and Spec.
func TestKeccakF1600x4Asm(t *testing.T) {
	variants := []struct {
		name string
		f    func(*[100]uint64)
	}{
		{"Generic", keccakF1600x4Generic},
		{"AMD64", keccakF1600x4AMD64},
	}
	if cpu.X86.HasAVX2 {
		variants = append(variants, struct {
			name string
			f    func(*[100]uint64)
		}{"AVX2", asm.KeccakF1600x4AVX2})
	}
	rng := rand.New(rand.NewPCG(11, 2))
	var a [100]uint64
	for iter := 0; iter < asmIterations()/4; iter++ { // four states each
		randomLanes(rng, a[:])
		var spec [100]uint64
		for j := 0; j < 4; j++ {
			var st [25]uint64
			for i := range st {
				st[i] = a[4*i+j]
			}
			fips202.KeccakF1600(&st)
			for i := range st {
				spec[4*i+j] = st[i]
			}
		}
		for _, v := range variants {
			got := a
			v.f(&got)
			if got != spec {
				t.Fatalf("iteration %d: keccakF1600x4%s differs from Spec", iter, v.name)
			}
		}
	}
}

// specRejNTTPoly is Spec's RejNTTPoly as a ringElement.
func specRejNTTPoly(seed *[34]byte) ringElement {
	p := fips204.RejNTTPoly(seed[:])
	var a ringElement
	for i, c := range p {
		a[i] = fieldElement(c)
	}
	return a
}

// checkRejNTTPoly compares every single-seed variant with the generic code
// and with Spec on seed.
func checkRejNTTPoly(t *testing.T, seed *[34]byte) {
	t.Helper()
	want := specRejNTTPoly(seed)
	var generic ringElement
	if !rejNTTPolyGeneric(&generic, seed) || generic != want {
		t.Fatalf("seed %x: generic differs from Spec", seed[:])
	}
	g := newGuarded()
	if !rejNTTPolyAMD64(g.poly(), seed) {
		t.Fatalf("seed %x: RejNTTPolyAMD64 ran out", seed[:])
	}
	if *g.poly() != want {
		t.Fatalf("seed %x: RejNTTPolyAMD64 differs from Spec", seed[:])
	}
	if !g.intact() {
		t.Fatalf("seed %x: RejNTTPolyAMD64 wrote outside its 256 coefficients", seed[:])
	}
}

// guarded is a ringElement between guard words, filled with junk so that a
// routine must write every coefficient and may write nothing else.
type guarded [16 + n256 + 16]fieldElement

const guardWord = 0xA5A5A5A5

func newGuarded() *guarded {
	g := new(guarded)
	for i := range g {
		g[i] = guardWord
	}
	return g
}

func (g *guarded) poly() *ringElement { return (*ringElement)(g[16 : 16+n256]) }

func (g *guarded) intact() bool {
	for i := range 16 {
		if g[i] != guardWord || g[16+n256+i] != guardWord {
			return false
		}
	}
	return true
}

func TestRejNTTPolyAMD64(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	var seed [34]byte
	for iter := 0; iter < asmIterations(); iter++ {
		randomSeed(rng, &seed)
		checkRejNTTPoly(t, &seed)
	}
}

// checkRejNTTPolyx4 compares every four-way variant with the generic code
// and with Spec on seeds.
func checkRejNTTPolyx4(t *testing.T, seeds *[4][34]byte) {
	t.Helper()
	var want [4]ringElement
	for j := range seeds {
		want[j] = specRejNTTPoly(&seeds[j])
	}
	variants := []struct {
		name string
		f    func(*[4]*ringElement, *[4][34]byte) bool
	}{
		{"Generic", rejNTTPolyx4Generic},
		{"AMD64", rejNTTPolyx4AMD64},
	}
	if cpu.X86.HasAVX2 {
		variants = append(variants, struct {
			name string
			f    func(*[4]*ringElement, *[4][34]byte) bool
		}{"AVX2", rejNTTPolyx4AVX2})
	}
	for _, v := range variants {
		var got [4]*guarded
		var ptrs [4]*ringElement
		for j := range got {
			got[j] = newGuarded()
			ptrs[j] = got[j].poly()
		}
		if !v.f(&ptrs, seeds) {
			t.Fatalf("seeds %x: rejNTTPolyx4%s ran out", seeds[:], v.name)
		}
		for j := range got {
			if *ptrs[j] != want[j] {
				t.Fatalf("seeds %x: rejNTTPolyx4%s differs from Spec on seed %d", seeds[:], v.name, j)
			}
			if !got[j].intact() {
				t.Fatalf("seeds %x: rejNTTPolyx4%s wrote outside sample %d", seeds[:], v.name, j)
			}
		}
	}
}

func TestRejNTTPolyx4AVX2(t *testing.T) {
	needAVX2(t)
	rng := rand.New(rand.NewPCG(11, 4))
	var seeds [4][34]byte
	for iter := 0; iter < asmIterations()/4; iter++ {
		for j := range seeds {
			randomSeed(rng, &seeds[j])
		}
		if iter%2 == 1 {
			// ExpandA's seeds: one ρ, four consecutive entries.
			for j := 1; j < 4; j++ {
				copy(seeds[j][:32], seeds[0][:32])
			}
		}
		checkRejNTTPolyx4(t, &seeds)
	}
}

func TestRejNTTPolyx4AMD64(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 5))
	var seeds [4][34]byte
	for iter := 0; iter < asmIterations()/40; iter++ {
		for j := range seeds {
			randomSeed(rng, &seeds[j])
		}
		checkRejNTTPolyx4(t, &seeds)
	}
}

// TestRejNTTPolyACVP samples every entry of Â for the public seeds ρ of the
// ACVP keyGen vectors (the first 32 bytes of each pk), with each variant,
// and compares with Spec. Entry (r, s) has seed ρ ‖ s ‖ r (Algorithm 32).
func TestRejNTTPolyACVP(t *testing.T) {
	dir := vectors.Dir(t)
	b, err := os.ReadFile(filepath.Join(dir, "acvp", "ML-DSA-keyGen-FIPS204", "expectedResults.json"))
	if err != nil {
		t.Fatal(err)
	}
	var results struct {
		TestGroups []struct {
			TgID  int `json:"tgId"`
			Tests []struct {
				Pk string `json:"pk"`
			} `json:"tests"`
		} `json:"testGroups"`
	}
	if err := json.Unmarshal(b, &results); err != nil {
		t.Fatal(err)
	}
	// k and ℓ of ML-DSA-44, -65, -87 (Table 1); ACVP's groups 1 to 3.
	dims := map[int][2]int{1: {4, 4}, 2: {6, 5}, 3: {8, 7}}
	n := 0
	for _, g := range results.TestGroups {
		kl, ok := dims[g.TgID]
		if !ok {
			t.Fatalf("unexpected test group %d", g.TgID)
		}
		for _, tc := range g.Tests {
			pk, err := hex.DecodeString(tc.Pk)
			if err != nil || len(pk) < 32 {
				t.Fatalf("group %d: bad pk", g.TgID)
			}
			var seeds [][34]byte
			for r := 0; r < kl[0]; r++ {
				for s := 0; s < kl[1]; s++ {
					var seed [34]byte
					copy(seed[:], pk[:32])
					seed[32], seed[33] = byte(s), byte(r)
					seeds = append(seeds, seed)
				}
			}
			for i := range seeds {
				checkRejNTTPoly(t, &seeds[i])
			}
			for i := 0; i+4 <= len(seeds); i += 4 {
				checkRejNTTPolyx4(t, (*[4][34]byte)(seeds[i:i+4]))
			}
			n += len(seeds)
		}
	}
	if n == 0 {
		t.Fatal("no ACVP keyGen test cases found")
	}
	t.Logf("%d entries of Â from %s", n, dir)
}

// TestAsmRequires checks the `// Requires:` lines that avo wrote in go/asm
// (the features each routine's instructions use) against what the dispatch
// checks before calling it: nothing for the baseline (AMD64) routines
// beyond CMOV, SSE and SSE2, which x86-64 includes, useAVX2 (cpu.X86.HasAVX2,
// which implies AVX) for the AVX2 ones, useBMI2 (cpu.X86.HasBMI1 and
// HasBMI2) for the BMI2 ones; and
// against the features its contract in Spec/contract allows. It also checks that every routine of go/asm is
// known here, so a new one cannot slip in ungated.
func TestAsmRequires(t *testing.T) {
	// What the dispatch checks before calling a variant: nothing for
	// AMD64, useAVX2 for AVX2, useBMI2 for BMI2; every contract's routine
	// is gated by its variant.
	byVariant := map[string][]string{"AMD64": nil, "AVX2": {"AVX", "AVX2"}, "BMI2": {"BMI", "BMI2"},
		"AVX512": {"AVX", "AVX2", "AVX512F", "AVX512VL"}}
	gated := map[string][]string{}
	for _, c := range contract.All() {
		req, ok := byVariant[c.Variant]
		if !ok {
			t.Errorf("%s: variant %s has no dispatch gate here", c.Symbol, c.Variant)
		}
		// An AVX2 or AVX-512 routine that calls the BMI2 permutation
		// (KeyGen, Verify) is dispatched under useAVX2 (useAVX512) and
		// useBMI2.
		if (c.Variant == "AVX2" || c.Variant == "AVX512") && slices.Contains(c.Features, "BMI2") {
			req = append(slices.Clone(req), "BMI", "BMI2")
		}
		gated[c.Symbol] = req
	}
	files, err := filepath.Glob(filepath.Join("..", "asm", "*.s"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no assembly files in ../asm: %v", err)
	}
	// The .s files as the checker reads them (Spec/x86's parser): each
	// TEXT symbol with its "// Requires:" line.
	found := map[string][]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := x86.ParseFile(filepath.Base(f), string(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range pf.Routines {
			if _, dup := found[r.Name]; dup {
				t.Errorf("%s: routine %s declared twice", f, r.Name)
			}
			found[r.Name] = r.Requires
		}
	}
	contracts := map[string][]string{}
	for _, c := range contract.All() {
		contracts[c.Symbol] = c.Features
	}
	for name, req := range found {
		want, ok := gated[name]
		if !ok {
			t.Errorf("go/asm routine %s (requires %v) has no entry here", name, req)
			continue
		}
		got := withoutBaseline(req)
		// The AVX-512 path is gated as a whole (useAVX512); a routine on
		// it may need less (the eight-way ones no AVX512VL), never more.
		if strings.HasSuffix(name, "AVX512") {
			for _, f := range got {
				if !slices.Contains(want, f) {
					t.Errorf("%s: // Requires: %v, but the dispatch checks only %v", name, req, want)
				}
			}
		} else if !slices.Equal(got, want) {
			t.Errorf("%s: // Requires: %v, but the dispatch checks %v", name, req, want)
		}
		if f, ok := contracts[name]; !ok {
			t.Errorf("%s: no contract in Spec/contract", name)
		} else if !slices.Equal(req, f) {
			t.Errorf("%s: // Requires: %v, but its contract allows %v", name, req, f)
		}
		avx512 := strings.HasSuffix(name, "AVX512")
		avx2 := strings.HasSuffix(name, "AVX2")
		if avx512 != slices.Contains(req, "AVX512F") || !avx512 && avx2 != slices.Contains(req, "AVX2") || strings.HasSuffix(name, "BMI2") != (slices.Contains(req, "BMI2") && !avx2 && !avx512) {
			t.Errorf("%s: the name's suffix does not match // Requires: %v", name, req)
		}
	}
	for name := range gated {
		if _, ok := found[name]; !ok {
			t.Errorf("routine %s missing from go/asm", name)
		}
	}
}

// withoutBaseline drops the features every x86-64 CPU has (SSE, SSE2),
// which no dispatch needs to check.
func withoutBaseline(req []string) []string {
	var out []string
	for _, f := range req {
		if f != "CMOV" && f != "SSE" && f != "SSE2" {
			out = append(out, f)
		}
	}
	return out
}

// TestDispatch checks that the dispatch picked the variants the CPU and
// VG_CPU_FEATURES call for.
func TestDispatch(t *testing.T) {
	switch os.Getenv("VG_CPU_FEATURES") {
	case "none":
		if cpuFeaturesFromEnv && useAVX2 {
			t.Error("VG_CPU_FEATURES=none, but useAVX2 is set")
		}
	case "avx2":
		if cpuFeaturesFromEnv && (!useAVX2 || useAVX512) {
			t.Errorf("VG_CPU_FEATURES=avx2, but useAVX2 = %v, useAVX512 = %v", useAVX2, useAVX512)
		}
	case "avx512":
		if cpuFeaturesFromEnv && (!useAVX2 || !useAVX512) {
			t.Errorf("VG_CPU_FEATURES=avx512, but useAVX2 = %v, useAVX512 = %v", useAVX2, useAVX512)
		}
	}
	if useAVX2 && !cpu.X86.HasAVX2 {
		t.Error("useAVX2 is set on a CPU without AVX2")
	}
	has512 := cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL
	if useAVX512 && (!has512 || !useAVX2) {
		t.Error("useAVX512 is set on a CPU without AVX2, AVX512F and AVX512VL, or without useAVX2")
	}
	if !cpuFeaturesFromEnv && (useAVX2 != cpu.X86.HasAVX2 || useAVX512 != has512) {
		t.Errorf("useAVX2 = %v, cpu.X86.HasAVX2 = %v; useAVX512 = %v, AVX-512 = %v", useAVX2, cpu.X86.HasAVX2, useAVX512, has512)
	}
}

// TestAsmVariantsRegistered checks that the go/mldsa variant of every
// contract (its GoName and Variant) is in the registry of variants (so
// TestVariantsAgainstGeneric runs it) and is usable on a CPU with the
// features it needs and only there: on an AVX2 machine a missing or
// unusable AVX2 variant fails, and an AVX-512 variant is usable exactly
// where the CPU has AVX512F and AVX512VL. The Go compositions of assembly
// (an AMD64 variant made of calls of another routine) are held to the same
// rule.
func TestAsmVariantsRegistered(t *testing.T) {
	registered := map[string]map[string][]bool{}
	for _, r := range registry {
		registered[r.routineName()] = map[string][]bool{}
		for _, v := range r.variantNames() {
			registered[r.routineName()][v.name] = append(registered[r.routineName()][v.name], v.usable)
		}
	}
	want := map[[2]string]bool{}
	for _, c := range contract.All() {
		if c.Valgrind {
			continue // valgrind's client request: no ML-DSA routine
		}
		want[[2]string{c.GoName, c.Variant}] = true
	}
	if len(want) == 0 {
		t.Fatal("no contracts")
	}
	for _, r := range registry {
		for _, v := range r.variantNames() {
			if v.name == "AMD64" || v.name == "AVX2" {
				want[[2]string{r.routineName(), v.name}] = true
			}
		}
	}
	for w := range want {
		usable := registered[w[0]][w[1]]
		if len(usable) != 1 {
			t.Errorf("%s%s registered %d times, want once", w[0], w[1], len(usable))
			continue
		}
		has := true
		switch w[1] {
		case "AVX2":
			has = cpu.X86.HasAVX2
		case "AVX512":
			has = cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL
		}
		if usable[0] != has {
			t.Errorf("%s%s: usable = %v on a CPU with AVX2 = %v, AVX512F and AVX512VL = %v", w[0], w[1], usable[0],
				cpu.X86.HasAVX2, cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL)
		}
	}
}
