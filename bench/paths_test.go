//go:build amd64

package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestIdentityAcrossPaths builds the driver with cpu_features_env and runs
// it on each of vg's assembly paths this CPU has (VG_CPU_FEATURES=none,
// avx2, avx512): each must be the path asked for, and give the same
// digest of public keys, signatures and expanded private keys as this test
// binary's vg, which TestIdentity compares with filippo.io/mldsa and circl.
// The AVX-512 path also runs the driver's own identity check against both.
func TestIdentityAcrossPaths(t *testing.T) {
	want, err := Digest(VG, NewWorkload())
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "driver")
	if out, err := exec.Command("go", "build", "-tags", "cpu_features_env", "-o", bin, "./cmd/driver").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, p := range []struct {
		env, path string
		have      bool
		check     bool
	}{
		{"none", "baseline x86-64 assembly", true, false},
		{"avx2", "AVX2", cpu.X86.HasAVX2, false},
		{"avx512", "AVX-512", cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL, true},
	} {
		t.Run(p.env, func(t *testing.T) {
			if !p.have {
				t.Skipf("this CPU (or OS) lacks the features of VG_CPU_FEATURES=%s", p.env)
			}
			run := func(arg string) string {
				cmd := exec.Command(bin, arg)
				cmd.Env = append(os.Environ(), "VG_CPU_FEATURES="+p.env)
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("driver %s: %v", arg, err)
				}
				return strings.TrimSpace(string(out))
			}
			if got := run("-info"); got != p.path {
				t.Fatalf("VG_CPU_FEATURES=%s runs the %q path, want %q", p.env, got, p.path)
			}
			if got := run("-digest"); got != want {
				t.Fatalf("VG_CPU_FEATURES=%s: digest %s, this binary's vg (%s) %s", p.env, got, VGImplementation(), want)
			}
			if p.check {
				t.Log(run("-check"))
			}
		})
	}
}
