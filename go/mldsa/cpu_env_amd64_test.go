//go:build amd64 && !purego && cpu_features_env

package mldsa

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// runWithCPUFeatures runs this test binary, running no test, with
// VG_CPU_FEATURES=value, and returns its combined output and error.
func runWithCPUFeatures(t *testing.T, value string) (string, error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "VG_CPU_FEATURES="+value)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestCPUFeaturesEnvInvalid checks that an unknown value stops the program
// at start-up with a message naming the variable and the value.
func TestCPUFeaturesEnvInvalid(t *testing.T) {
	for _, v := range []string{"bogus", "AVX2", "AVX512", "avx-512", " none"} {
		out, err := runWithCPUFeatures(t, v)
		if err == nil {
			t.Errorf("VG_CPU_FEATURES=%q: the program ran on; output:\n%s", v, out)
			continue
		}
		if !strings.Contains(out, "VG_CPU_FEATURES=") || !strings.Contains(out, "not a known value") {
			t.Errorf("VG_CPU_FEATURES=%q: unclear message:\n%s", v, out)
		}
	}
}

// TestCPUFeaturesEnvValid checks that the known values start normally, or,
// for avx2 on a CPU without it, stop with a clear message.
func TestCPUFeaturesEnvValid(t *testing.T) {
	for _, v := range []string{"", "none", "avx2", "avx512"} {
		out, err := runWithCPUFeatures(t, v)
		if v == "avx2" && !cpu.X86.HasAVX2 {
			if err == nil || !strings.Contains(out, "does not support AVX2") {
				t.Errorf("VG_CPU_FEATURES=avx2 without AVX2: err %v, output:\n%s", err, out)
			}
			continue
		}
		if v == "avx512" && !(cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL) {
			if err == nil || !strings.Contains(out, "does not support") {
				t.Errorf("VG_CPU_FEATURES=avx512 without AVX-512: err %v, output:\n%s", err, out)
			}
			continue
		}
		if err != nil {
			t.Errorf("VG_CPU_FEATURES=%q: %v; output:\n%s", v, err, out)
		}
	}
}
