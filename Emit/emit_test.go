package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"golang.org/x/sys/cpu"
)

// TestCheckedIn regenerates go/asm in memory and compares it with the files
// in the repository, as `go run ./Emit -check` does.
func TestCheckedIn(t *testing.T) {
	files, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range checkFiles(filepath.Join("..", "go", "asm"), files) {
		t.Error(msg)
	}
}

// TestRejNTTPolyRunsOut emits the samplers with a bound of 4 blocks (224
// three-byte groups, fewer than 256 coefficients), and RejBoundedPoly with
// one block (272 half-bytes, of which η = 4 accepts 256 or more with
// probability below 2⁻¹⁰⁰), builds them in a scratch module and checks that
// every sampler returns false, stops and writes nothing outside its
// outputs: the path that random seeds never take with the real bound.
func TestRejNTTPolyRunsOut(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the samplers run on amd64 only")
	}
	if testing.Short() {
		t.Skip("builds and runs a scratch module")
	}
	saved, savedBounded := rejNTTPolyBlocks, rejBoundedPolyBlocks
	rejNTTPolyBlocks, rejBoundedPolyBlocks = 4, 1
	files, err := generate()
	rejNTTPolyBlocks, rejBoundedPolyBlocks = saved, savedBounded
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module runsout\n\ngo 1.26\n")
	for name, b := range files {
		write(name, string(b))
	}
	write("runsout_test.go", runsOutTest)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command in PATH")
	}
	cmd := exec.Command(goCmd, "test", "-count=1", ".")
	cmd.Dir = dir
	// The scratch module builds as plain amd64: no inherited tags.
	cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false", "GOWORK=off")
	if cpu.X86.HasAVX2 {
		cmd.Env = append(cmd.Env, "RUNSOUT_AVX2=1")
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// runsOutTest runs in the scratch module, package asm.
const runsOutTest = `package asm

import (
	"math/rand/v2"
	"os"
	"testing"
)

const guard = 0xA5A5A5A5

type guarded [16 + 256 + 16]uint32

func newGuarded() *guarded {
	g := new(guarded)
	for i := range g {
		g[i] = guard
	}
	return g
}

func (g *guarded) poly() *[256]uint32 { return (*[256]uint32)(g[16 : 16+256]) }

func (g *guarded) intact() bool {
	for i := 0; i < 16; i++ {
		if g[i] != guard || g[16+256+i] != guard {
			return false
		}
	}
	return true
}

func TestRunsOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 200; iter++ {
		var seeds [4][34]byte
		for j := range seeds {
			for i := range seeds[j] {
				seeds[j][i] = byte(rng.Uint32())
			}
		}
		g := newGuarded()
		if RejNTTPolyAMD64(g.poly(), &seeds[0]) {
			t.Fatal("RejNTTPolyAMD64 completed from 224 groups")
		}
		if !g.intact() {
			t.Fatal("RejNTTPolyAMD64 wrote outside its output")
		}
		var ρ [64]byte
		for i := range ρ {
			ρ[i] = byte(rng.Uint32())
		}
		nonce := uint16(rng.Uint32())
		g = newGuarded()
		if RejBoundedPolyEta4AMD64(g.poly(), &ρ, &nonce) {
			t.Fatal("RejBoundedPolyEta4AMD64 completed from 272 half-bytes")
		}
		if !g.intact() {
			t.Fatal("RejBoundedPolyEta4AMD64 wrote outside its output")
		}
		if os.Getenv("RUNSOUT_AVX2") != "1" {
			continue
		}
		var gs [4]*guarded
		var ptrs [4]*[256]uint32
		for j := range gs {
			gs[j] = newGuarded()
			ptrs[j] = gs[j].poly()
		}
		if RejNTTPolyx4AVX2(&ptrs, &seeds) {
			t.Fatal("RejNTTPolyx4AVX2 completed from 224 groups")
		}
		for j := range gs {
			if !gs[j].intact() {
				t.Fatalf("RejNTTPolyx4AVX2 wrote outside output %d", j)
			}
		}
	}
}
`

// The emitter's list of routines is the contracts': a builder without a
// contract, a contract without a builder, or a routine using features its
// contract does not allow stops generation.
func TestGenerateFollowsContracts(t *testing.T) {
	saved := builders
	defer func() { builders = saved }()
	withBuilders := func(edit func(m map[string]func(*build.Context))) error {
		builders = map[string]func(*build.Context){}
		for k, v := range saved {
			builders[k] = v
		}
		edit(builders)
		_, err := generate()
		return err
	}
	for _, tc := range []struct {
		what string
		edit func(m map[string]func(*build.Context))
		want string
	}{
		{"extra builder", func(m map[string]func(*build.Context)) { m["planted"] = m["ntt"] }, "builder without a contract"},
		{"missing builder", func(m map[string]func(*build.Context)) { delete(m, "nttmul") }, "contract without a builder"},
		// The baseline Keccak's contract allows no extension; emitting the
		// AVX2 permutation under its name breaks it.
		{"features", func(m map[string]func(*build.Context)) {
			m["keccak"] = func(c *build.Context) {
				function(c, "KeccakF1600AMD64")
				c.VZEROUPPER()
				c.RET()
			}
		}, "its contract allows"},
	} {
		err := withBuilders(tc.edit)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: generate() = %v, want an error containing %q", tc.what, err, tc.want)
		}
	}
}
