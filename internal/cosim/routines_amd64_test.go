//go:build !purego

package cosim

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
	"github.com/vg-crypto/vg/go/asm"
	"github.com/vg-crypto/vg/internal/modroot"
)

// cpuRoutines maps each go/asm routine to its Go function, the AVX2 (BMI2,
// AVX-512) ones only where the CPU has AVX2 (BMI1 and BMI2, AVX512F and
// AVX512VL); the test skips them otherwise.
func cpuRoutines() map[string]any {
	m := map[string]any{
		"KeccakF1600AMD64":        asm.KeccakF1600AMD64,
		"ExpandMask17AMD64":       asm.ExpandMask17AMD64,
		"ExpandMask19AMD64":       asm.ExpandMask19AMD64,
		"RejNTTPolyAMD64":         asm.RejNTTPolyAMD64,
		"RejBoundedPolyEta2AMD64": asm.RejBoundedPolyEta2AMD64,
		"RejBoundedPolyEta4AMD64": asm.RejBoundedPolyEta4AMD64,
		"HighBits32AMD64":         asm.HighBits32AMD64,
		"HighBits88AMD64":         asm.HighBits88AMD64,
		"LowBitsExceed32AMD64":    asm.LowBitsExceed32AMD64,
		"LowBitsExceed88AMD64":    asm.LowBitsExceed88AMD64,
		"MakeHint32AMD64":         asm.MakeHint32AMD64,
		"MakeHint88AMD64":         asm.MakeHint88AMD64,
		"NormExceedsAMD64":        asm.NormExceedsAMD64,
		"Power2RoundPolyAMD64":    asm.Power2RoundPolyAMD64,
		"UseHint32AMD64":          asm.UseHint32AMD64,
		"UseHint88AMD64":          asm.UseHint88AMD64,
		"SimpleBitPack4AMD64":     asm.SimpleBitPack4AMD64,
		"SimpleBitPack6AMD64":     asm.SimpleBitPack6AMD64,
		"SimpleBitPack10AMD64":    asm.SimpleBitPack10AMD64,
		"BitPack3AMD64":           asm.BitPack3AMD64,
		"BitPack4AMD64":           asm.BitPack4AMD64,
		"BitPack13AMD64":          asm.BitPack13AMD64,
		"BitPack18AMD64":          asm.BitPack18AMD64,
		"BitPack20AMD64":          asm.BitPack20AMD64,
		"SimpleBitUnpack10AMD64":  asm.SimpleBitUnpack10AMD64,
		"BitUnpack3AMD64":         asm.BitUnpack3AMD64,
		"BitUnpack4AMD64":         asm.BitUnpack4AMD64,
		"BitUnpack13AMD64":        asm.BitUnpack13AMD64,
		"BitUnpack18AMD64":        asm.BitUnpack18AMD64,
		"BitUnpack20AMD64":        asm.BitUnpack20AMD64,
		"NTTAMD64":                asm.NTTAMD64,
		"NTTInverseAMD64":         asm.NTTInverseAMD64,
		"MultiplyNTTAMD64":        asm.MultiplyNTTAMD64,
		"MultiplyAccNTT4AMD64":    asm.MultiplyAccNTT4AMD64,
		"MultiplyAccNTT5AMD64":    asm.MultiplyAccNTT5AMD64,
		"MultiplyAccNTT7AMD64":    asm.MultiplyAccNTT7AMD64,
		"PolyAddAMD64":            asm.PolyAddAMD64,
		"PolySubAMD64":            asm.PolySubAMD64,
		"ToMontgomeryPolyAMD64":   asm.ToMontgomeryPolyAMD64,
		"ToMontgomeryT1PolyAMD64": asm.ToMontgomeryT1PolyAMD64,
		"FromMontgomeryPolyAMD64": asm.FromMontgomeryPolyAMD64,
		"ExpandA44AMD64":          asm.ExpandA44AMD64,
		"ExpandA65AMD64":          asm.ExpandA65AMD64,
		"ExpandA87AMD64":          asm.ExpandA87AMD64,
		"SampleInBall44AMD64":     asm.SampleInBall44AMD64,
		"SampleInBall65AMD64":     asm.SampleInBall65AMD64,
		"SampleInBall87AMD64":     asm.SampleInBall87AMD64,
		"HintBitPack44AMD64":      asm.HintBitPack44AMD64,
		"HintBitPack65AMD64":      asm.HintBitPack65AMD64,
		"HintBitPack87AMD64":      asm.HintBitPack87AMD64,
		"HintBitUnpack44AMD64":    asm.HintBitUnpack44AMD64,
		"HintBitUnpack65AMD64":    asm.HintBitUnpack65AMD64,
		"HintBitUnpack87AMD64":    asm.HintBitUnpack87AMD64,
		"TrHash44AMD64":           asm.TrHash44AMD64,
		"TrHash65AMD64":           asm.TrHash65AMD64,
		"TrHash87AMD64":           asm.TrHash87AMD64,
		"KeyGenSeed44AMD64":       asm.KeyGenSeed44AMD64,
		"KeyGenSeed65AMD64":       asm.KeyGenSeed65AMD64,
		"KeyGenSeed87AMD64":       asm.KeyGenSeed87AMD64,
		"KeyGenPk44AMD64":         asm.KeyGenPk44AMD64,
		"KeyGenPk65AMD64":         asm.KeyGenPk65AMD64,
		"KeyGenPk87AMD64":         asm.KeyGenPk87AMD64,
		"KeyGenT44AMD64":          asm.KeyGenT44AMD64,
		"KeyGenT65AMD64":          asm.KeyGenT65AMD64,
		"KeyGenT87AMD64":          asm.KeyGenT87AMD64,
		// Outside valgrind the client request changes no memory.
		"ValgrindClientRequestAMD64": asm.ValgrindClientRequestAMD64,
	}
	m["SHAKE256AbsorbBlockAMD64"] = asm.SHAKE256AbsorbBlockAMD64
	m["SHAKE256AbsorbAMD64"] = asm.SHAKE256AbsorbAMD64
	m["SHAKE256FinishAMD64"] = asm.SHAKE256FinishAMD64
	m["KeyGen44AMD64"] = asm.KeyGen44AMD64
	m["KeyGen65AMD64"] = asm.KeyGen65AMD64
	m["KeyGen87AMD64"] = asm.KeyGen87AMD64
	m["Verify44AMD64"] = asm.Verify44AMD64
	m["Verify65AMD64"] = asm.Verify65AMD64
	m["Verify87AMD64"] = asm.Verify87AMD64
	m["SignZ44AMD64"] = asm.SignZ44AMD64
	m["SignZ65AMD64"] = asm.SignZ65AMD64
	m["SignZ87AMD64"] = asm.SignZ87AMD64
	m["SignR044AMD64"] = asm.SignR044AMD64
	m["SignR065AMD64"] = asm.SignR065AMD64
	m["SignR087AMD64"] = asm.SignR087AMD64
	m["SignHint44AMD64"] = asm.SignHint44AMD64
	m["SignHint65AMD64"] = asm.SignHint65AMD64
	m["SignHint87AMD64"] = asm.SignHint87AMD64
	m["SigEncode44AMD64"] = asm.SigEncode44AMD64
	m["SigEncode65AMD64"] = asm.SigEncode65AMD64
	m["SigEncode87AMD64"] = asm.SigEncode87AMD64
	m["Sign44AMD64"] = asm.Sign44AMD64
	m["Sign65AMD64"] = asm.Sign65AMD64
	m["Sign87AMD64"] = asm.Sign87AMD64
	if cpu.X86.HasBMI1 && cpu.X86.HasBMI2 {
		m["SHAKE256AbsorbBMI2"] = asm.SHAKE256AbsorbBMI2
		m["KeccakF1600BMI2"] = asm.KeccakF1600BMI2
		m["SHAKE256AbsorbBlockBMI2"] = asm.SHAKE256AbsorbBlockBMI2
		m["SHAKE256FinishBMI2"] = asm.SHAKE256FinishBMI2
		m["TrHash44BMI2"] = asm.TrHash44BMI2
		m["TrHash65BMI2"] = asm.TrHash65BMI2
		m["TrHash87BMI2"] = asm.TrHash87BMI2
		m["ExpandMask17BMI2"] = asm.ExpandMask17BMI2
		m["ExpandMask19BMI2"] = asm.ExpandMask19BMI2
		m["RejNTTPolyBMI2"] = asm.RejNTTPolyBMI2
		m["SampleInBall44BMI2"] = asm.SampleInBall44BMI2
		m["SampleInBall65BMI2"] = asm.SampleInBall65BMI2
		m["SampleInBall87BMI2"] = asm.SampleInBall87BMI2
		m["KeyGenSeed44BMI2"] = asm.KeyGenSeed44BMI2
		m["KeyGenSeed65BMI2"] = asm.KeyGenSeed65BMI2
		m["KeyGenSeed87BMI2"] = asm.KeyGenSeed87BMI2
	}
	if cpu.X86.HasAVX2 {
		for k, v := range map[string]any{
			"KeccakF1600x4AVX2":        asm.KeccakF1600x4AVX2,
			"ExpandMask17x4AVX2":       asm.ExpandMask17x4AVX2,
			"ExpandMask19x4AVX2":       asm.ExpandMask19x4AVX2,
			"RejNTTPolyx4AVX2":         asm.RejNTTPolyx4AVX2,
			"RejBoundedPolyx4Eta2AVX2": asm.RejBoundedPolyx4Eta2AVX2,
			"RejBoundedPolyx4Eta4AVX2": asm.RejBoundedPolyx4Eta4AVX2,
			"NTTAVX2":                  asm.NTTAVX2,
			"NTTInverseAVX2":           asm.NTTInverseAVX2,
			"NTTInverseMontAVX2":       asm.NTTInverseMontAVX2,
			"MultiplyNTTAVX2":          asm.MultiplyNTTAVX2,
			"MultiplyAccNTT4AVX2":      asm.MultiplyAccNTT4AVX2,
			"MultiplyAccNTT5AVX2":      asm.MultiplyAccNTT5AVX2,
			"MultiplyAccNTT7AVX2":      asm.MultiplyAccNTT7AVX2,
			"PolyAddAVX2":              asm.PolyAddAVX2,
			"PolySubAVX2":              asm.PolySubAVX2,
			"ToMontgomeryPolyAVX2":     asm.ToMontgomeryPolyAVX2,
			"ToMontgomeryT1PolyAVX2":   asm.ToMontgomeryT1PolyAVX2,
			"FromMontgomeryPolyAVX2":   asm.FromMontgomeryPolyAVX2,
			"HighBits32AVX2":           asm.HighBits32AVX2,
			"HighBits88AVX2":           asm.HighBits88AVX2,
			"LowBitsExceed32AVX2":      asm.LowBitsExceed32AVX2,
			"LowBitsExceed88AVX2":      asm.LowBitsExceed88AVX2,
			"MakeHint32AVX2":           asm.MakeHint32AVX2,
			"MakeHint88AVX2":           asm.MakeHint88AVX2,
			"NormExceedsAVX2":          asm.NormExceedsAVX2,
			"Power2RoundPolyAVX2":      asm.Power2RoundPolyAVX2,
			"UseHint32AVX2":            asm.UseHint32AVX2,
			"UseHint88AVX2":            asm.UseHint88AVX2,
			"SimpleBitPack4AVX2":       asm.SimpleBitPack4AVX2,
			"SimpleBitPack6AVX2":       asm.SimpleBitPack6AVX2,
			"SimpleBitPack10AVX2":      asm.SimpleBitPack10AVX2,
			"BitPack3AVX2":             asm.BitPack3AVX2,
			"BitPack4AVX2":             asm.BitPack4AVX2,
			"BitPack13AVX2":            asm.BitPack13AVX2,
			"BitPack18AVX2":            asm.BitPack18AVX2,
			"BitPack20AVX2":            asm.BitPack20AVX2,
			"SimpleBitUnpack10AVX2":    asm.SimpleBitUnpack10AVX2,
			"BitUnpack3AVX2":           asm.BitUnpack3AVX2,
			"BitUnpack4AVX2":           asm.BitUnpack4AVX2,
			"BitUnpack13AVX2":          asm.BitUnpack13AVX2,
			"BitUnpack18AVX2":          asm.BitUnpack18AVX2,
			"BitUnpack20AVX2":          asm.BitUnpack20AVX2,
			"KeyGenPk44AVX2":           asm.KeyGenPk44AVX2,
			"KeyGenPk65AVX2":           asm.KeyGenPk65AVX2,
			"KeyGenPk87AVX2":           asm.KeyGenPk87AVX2,
			"KeyGenT44AVX2":            asm.KeyGenT44AVX2,
			"KeyGenT65AVX2":            asm.KeyGenT65AVX2,
			"KeyGenT87AVX2":            asm.KeyGenT87AVX2,
			"ExpandA44AVX2":            asm.ExpandA44AVX2,
			"ExpandA87AVX2":            asm.ExpandA87AVX2,
		} {
			m[k] = v
		}
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2 {
		m["ExpandMask17AVX2"] = asm.ExpandMask17AVX2
		m["ExpandMask19AVX2"] = asm.ExpandMask19AVX2
		// These call routines on the BMI2 permutation (ExpandA65AVX2 for
		// its entries after the groups of four).
		m["ExpandA65AVX2"] = asm.ExpandA65AVX2
		m["KeyGen44AVX2"] = asm.KeyGen44AVX2
		m["KeyGen65AVX2"] = asm.KeyGen65AVX2
		m["KeyGen87AVX2"] = asm.KeyGen87AVX2
		m["Verify44AVX2"] = asm.Verify44AVX2
		m["Verify65AVX2"] = asm.Verify65AVX2
		m["Verify87AVX2"] = asm.Verify87AVX2
		m["SignZ44AVX2"] = asm.SignZ44AVX2
		m["SignZ65AVX2"] = asm.SignZ65AVX2
		m["SignZ87AVX2"] = asm.SignZ87AVX2
		m["SignR044AVX2"] = asm.SignR044AVX2
		m["SignR065AVX2"] = asm.SignR065AVX2
		m["SignR087AVX2"] = asm.SignR087AVX2
		m["SignHint44AVX2"] = asm.SignHint44AVX2
		m["SignHint65AVX2"] = asm.SignHint65AVX2
		m["SignHint87AVX2"] = asm.SignHint87AVX2
		m["SigEncode44AVX2"] = asm.SigEncode44AVX2
		m["SigEncode65AVX2"] = asm.SigEncode65AVX2
		m["SigEncode87AVX2"] = asm.SigEncode87AVX2
		m["Sign44AVX2"] = asm.Sign44AVX2
		m["Sign65AVX2"] = asm.Sign65AVX2
		m["Sign87AVX2"] = asm.Sign87AVX2
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL {
		m["KeccakF1600x4AVX512"] = asm.KeccakF1600x4AVX512
		m["RejNTTPolyx4AVX512"] = asm.RejNTTPolyx4AVX512
		m["ExpandA44AVX512"] = asm.ExpandA44AVX512
		m["ExpandA65AVX512"] = asm.ExpandA65AVX512
		m["ExpandA87AVX512"] = asm.ExpandA87AVX512
		m["RejBoundedPolyx4Eta2AVX512"] = asm.RejBoundedPolyx4Eta2AVX512
		m["RejBoundedPolyx4Eta4AVX512"] = asm.RejBoundedPolyx4Eta4AVX512
		m["ExpandMask17x4AVX512"] = asm.ExpandMask17x4AVX512
		m["ExpandMask19x4AVX512"] = asm.ExpandMask19x4AVX512
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasAVX512F {
		m["KeccakF1600x8AVX512"] = asm.KeccakF1600x8AVX512
		m["RejNTTPolyx8AVX512"] = asm.RejNTTPolyx8AVX512
		m["NTTAVX512"] = asm.NTTAVX512
		m["NTTInverseAVX512"] = asm.NTTInverseAVX512
		m["MultiplyNTTAVX512"] = asm.MultiplyNTTAVX512
		m["MultiplyAccNTT4AVX512"] = asm.MultiplyAccNTT4AVX512
		m["MultiplyAccNTT5AVX512"] = asm.MultiplyAccNTT5AVX512
		m["MultiplyAccNTT7AVX512"] = asm.MultiplyAccNTT7AVX512
		m["ExpandMask17x8AVX512"] = asm.ExpandMask17x8AVX512
		m["ExpandMask19x8AVX512"] = asm.ExpandMask19x8AVX512
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasBMI1 && cpu.X86.HasBMI2 {
		// These call the BMI2 permutation and SampleInBall besides.
		m["Verify44AVX512"] = asm.Verify44AVX512
		m["Verify65AVX512"] = asm.Verify65AVX512
		m["Verify87AVX512"] = asm.Verify87AVX512
		m["SignZ65AVX512"] = asm.SignZ65AVX512
		m["SignZ87AVX512"] = asm.SignZ87AVX512
		m["SignR044AVX512"] = asm.SignR044AVX512
		m["SignR065AVX512"] = asm.SignR065AVX512
		m["SignR087AVX512"] = asm.SignR087AVX512
		m["SignHint44AVX512"] = asm.SignHint44AVX512
		m["SignHint65AVX512"] = asm.SignHint65AVX512
		m["SignHint87AVX512"] = asm.SignHint87AVX512
		m["Sign65AVX512"] = asm.Sign65AVX512
		m["Sign87AVX512"] = asm.Sign87AVX512
		if cpu.X86.HasAVX512VL {
			m["Sign44AVX512"] = asm.Sign44AVX512
			// SignZ44AVX512 calls the four-way ExpandMask.
			m["SignZ44AVX512"] = asm.SignZ44AVX512
			m["KeyGen44AVX512"] = asm.KeyGen44AVX512
			m["KeyGen65AVX512"] = asm.KeyGen65AVX512
			m["KeyGen87AVX512"] = asm.KeyGen87AVX512
		}
	}
	return m
}

// callOnCPU calls fn with pointers into the contract's buffers, in the
// order of the contract's arguments, and returns its bool result as a byte.
func callOnCPU(t *testing.T, fn any, c *contract.Contract, b contract.Buffers) byte {
	f := reflect.ValueOf(fn)
	ft := f.Type()
	if ft.NumIn() != len(c.Args) {
		t.Fatalf("%s: %d parameters, the contract has %d arguments", c.Symbol, ft.NumIn(), len(c.Args))
	}
	var args []reflect.Value
	for i, a := range c.Args {
		pt := ft.In(i)
		if a.Indirect == 0 {
			args = append(args, reflect.NewAt(pt.Elem(), unsafe.Pointer(&b[a.Name][0])))
			continue
		}
		arr := reflect.New(pt.Elem()) // *[n]*T
		for j, bn := range a.BufferNames() {
			arr.Elem().Index(j).Set(reflect.NewAt(pt.Elem().Elem().Elem(), unsafe.Pointer(&b[bn][0])))
		}
		args = append(args, arr)
	}
	out := f.Call(args)
	if len(out) == 1 && out[0].Kind() == reflect.Bool && out[0].Bool() {
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
	// The routines' own file-local tables (keccakRC<> …) are the data they
	// may read; Spec/check reads their names from go/asm's sources.
	root, err := modroot.Find()
	if err != nil {
		t.Fatal(err)
	}
	if bin.Statics, err = check.AsmStatics(filepath.Join(root, "go", "asm")); err != nil {
		t.Fatal(err)
	}
	runs := 200
	if testing.Short() {
		runs = 20
	}
	fns := cpuRoutines()
	for _, c := range contract.All() {
		t.Run(c.Symbol, func(t *testing.T) {
			for _, f := range c.Features {
				if f == "AVX2" && !cpu.X86.HasAVX2 {
					t.Skip("this CPU lacks AVX2")
				}
				if f == "BMI" && !cpu.X86.HasBMI1 || f == "BMI2" && !cpu.X86.HasBMI2 {
					t.Skip("this CPU lacks BMI1 or BMI2")
				}
				if f == "AVX512F" && !cpu.X86.HasAVX512F || f == "AVX512VL" && !cpu.X86.HasAVX512VL {
					t.Skip("this CPU lacks AVX512F or AVX512VL")
				}
			}
			fn, ok := fns[c.Symbol]
			if !ok {
				t.Fatalf("%s: not in this test's list of go/asm routines", c.Symbol)
			}
			f, err := bin.Routine(check.AsmPackage, c.Symbol)
			if err != nil {
				t.Fatal(err)
			}
			// A caller runs its callees on the CPU; the model applies
			// their contracts (Spec/check, call.go).
			callees := map[string]*x86.Routine{}
			for _, name := range c.Calls {
				cf, err := bin.Routine(check.AsmPackage, name)
				if err != nil {
					t.Fatal(err)
				}
				callees[name] = cf.Routines[0]
			}
			n := runs
			if len(c.Calls) > 0 {
				n = max(2, runs/20) // every input samples kℓ polynomials
			}
			rng := rand.New(rand.NewPCG(11, 12))
			for i := 0; i < n; i++ {
				in := c.Gen(rng)
				model, mret, err := check.RunCalls(f, f.Routines[0], c, in, uint64(i), callees)
				if err != nil {
					t.Fatalf("input %d: model: %v", i, err)
				}
				hw := contract.Buffers{}
				for k, v := range in {
					hw[k] = append([]byte(nil), v...)
				}
				hret := callOnCPU(t, fn, c, hw)
				for k := range hw {
					// Sign's scratch holds its stages' work space, which
					// their Effects leave as garbage of their own.
					if c.Attempts != nil && slices.Contains(c.Attempts.Scratch, k) && !slices.Contains(c.PublicOut, k) {
						continue
					}
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
