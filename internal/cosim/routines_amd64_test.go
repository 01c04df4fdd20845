//go:build !purego

package cosim

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
	"github.com/vg-crypto/vg/go/asm"
)

// onCPU calls each go/asm routine on contract buffers, on this CPU (the
// AVX2 routines only where the CPU has AVX2; the test skips them
// otherwise).
var onCPU = map[string]func(b contract.Buffers) byte{
	"KeccakF1600AMD64": func(b contract.Buffers) byte {
		asm.KeccakF1600AMD64((*[25]uint64)(unsafe.Pointer(&b["a"][0])))
		return 0
	},
	"KeccakF1600x4AVX2": func(b contract.Buffers) byte {
		if cpu.X86.HasAVX2 {
			asm.KeccakF1600x4AVX2((*[100]uint64)(unsafe.Pointer(&b["a"][0])))
		}
		return 0
	},
	"NTTAVX2": func(b contract.Buffers) byte {
		if cpu.X86.HasAVX2 {
			asm.NTTAVX2(p256(b["w"]))
		}
		return 0
	},
	"NTTInverseAVX2": func(b contract.Buffers) byte {
		if cpu.X86.HasAVX2 {
			asm.NTTInverseAVX2(p256(b["w"]))
		}
		return 0
	},
	"MultiplyNTTAVX2": func(b contract.Buffers) byte {
		if cpu.X86.HasAVX2 {
			asm.MultiplyNTTAVX2(p256(b["out"]), p256(b["a"]), p256(b["b"]))
		}
		return 0
	},
	"MultiplyAccNTT4AVX2": func(b contract.Buffers) byte {
		if cpu.X86.HasAVX2 {
			asm.MultiplyAccNTT4AVX2(p256(b["out"]), (*[4][256]uint32)(unsafe.Pointer(&b["a"][0])), (*[4][256]uint32)(unsafe.Pointer(&b["b"][0])))
		}
		return 0
	},
	"MultiplyAccNTT5AVX2": func(b contract.Buffers) byte {
		if cpu.X86.HasAVX2 {
			asm.MultiplyAccNTT5AVX2(p256(b["out"]), (*[5][256]uint32)(unsafe.Pointer(&b["a"][0])), (*[5][256]uint32)(unsafe.Pointer(&b["b"][0])))
		}
		return 0
	},
	"MultiplyAccNTT7AVX2": func(b contract.Buffers) byte {
		if cpu.X86.HasAVX2 {
			asm.MultiplyAccNTT7AVX2(p256(b["out"]), (*[7][256]uint32)(unsafe.Pointer(&b["a"][0])), (*[7][256]uint32)(unsafe.Pointer(&b["b"][0])))
		}
		return 0
	},
	"RejNTTPolyAMD64": func(b contract.Buffers) byte {
		return boolByte(asm.RejNTTPolyAMD64(p256(b["a"]), (*[34]byte)(b["seed"])))
	},
	"RejNTTPolyx4AVX2": func(b contract.Buffers) byte {
		if !cpu.X86.HasAVX2 {
			return 0
		}
		a := [4]*[256]uint32{p256(b["a[0]"]), p256(b["a[1]"]), p256(b["a[2]"]), p256(b["a[3]"])}
		return boolByte(asm.RejNTTPolyx4AVX2(&a, (*[4][34]byte)(unsafe.Pointer(&b["seeds"][0]))))
	},
}

func p256(b []byte) *[256]uint32 { return (*[256]uint32)(unsafe.Pointer(&b[0])) }

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// TestRoutineBytes cosimulates whole routines: the machine code of each
// go/asm routine is read from this very test binary (the bytes the CPU runs
// below), decoded by Spec/x86 and run in the model; the same random inputs
// go to the routine on the CPU. Buffers and results must agree bit for bit.
func TestRoutineBytes(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := x86.OpenBinary(exe)
	if err != nil && os.Getenv(childEnv) == "" {
		// go test links without a symbol table; a binary built with
		// go test -c has one. Build it and run this test there.
		runChild(t)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer bin.Close()
	runs := 200
	if testing.Short() {
		runs = 20
	}
	for _, c := range contract.All {
		call, ok := onCPU[c.Symbol]
		if !ok {
			t.Errorf("%s: no CPU call in this test", c.Symbol)
			continue
		}
		t.Run(c.Symbol, func(t *testing.T) {
			for _, f := range c.Features {
				if f == "AVX2" && !cpu.X86.HasAVX2 {
					t.Skip("this CPU lacks AVX2")
				}
			}
			f, err := bin.Routine(check.AsmPackage, c.Symbol)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(11, 12))
			for i := 0; i < runs; i++ {
				in := c.Gen(rng)
				model, mret, err := check.Run(f, f.Routines[0], c, in, uint64(i))
				if err != nil {
					t.Fatalf("input %d: model: %v", i, err)
				}
				hw := contract.Buffers{}
				for k, v := range in {
					hw[k] = append([]byte(nil), v...)
				}
				hret := call(hw)
				for k := range hw {
					if !bytes.Equal(hw[k], model[k]) {
						t.Fatalf("input %d: buffer %s differs between the CPU and the model", i, k)
					}
				}
				if c.Result != "" && hret != mret {
					t.Fatalf("input %d: result %d on the CPU, %d in the model", i, hret, mret)
				}
			}
		})
	}
}

const childEnv = "VG_COSIM_ROUTINE_CHILD"

// runChild builds this package's test binary with its symbol table and runs
// TestRoutineBytes in it.
func runChild(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "cosim.test")
	build := exec.Command("go", "test", "-c", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	args := []string{"-test.run", "^TestRoutineBytes$", "-test.v"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("TestRoutineBytes in the test binary built with its symbols: %v", err)
	}
	if !bytes.Contains(out, []byte("--- PASS: TestRoutineBytes")) {
		t.Fatal("the child did not run TestRoutineBytes")
	}
}
