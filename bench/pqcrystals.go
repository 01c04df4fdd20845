package bench

import (
	"bufio"
	"bytes"
	"crypto/sha3"
	"embed"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/vg-crypto/vg/go/mldsa"
)

// pq-crystals' Dilithium (github.com/pq-crystals/dilithium, the authors'
// code of FIPS 204) is compiled from a source tree outside the repository
// (PQCrystalsDir) into a temporary directory, with the driver of
// pqcrystals/driver.c, so that its C code runs the same workload as the Go
// implementations.

//go:embed pqcrystals/driver.c pqcrystals/routines.c pqcrystals/keccak.c
var cDriver embed.FS

// CVariant is one build of pq-crystals' code.
type CVariant struct {
	Key   string   // Column.C
	Dir   string   // avx2 or ref
	Flags []string // gcc flags
}

// CVariants lists the builds: the AVX2 code for Haswell (which valgrind
// runs, so it is counted) and for this CPU (-march=native, which may use
// AVX-512 instructions valgrind cannot decode, so it is only timed), and
// the portable reference code for baseline x86-64, with the flags of
// pq-crystals' Makefiles.
var CVariants = []CVariant{
	{Key: "avx2-haswell", Dir: "avx2", Flags: []string{"-O3", "-mavx2", "-mpopcnt", "-march=haswell", "-mtune=haswell"}},
	{Key: "avx2-native", Dir: "avx2", Flags: []string{"-O3", "-mavx2", "-mpopcnt", "-march=native", "-mtune=native"}},
	{Key: "ref", Dir: "ref", Flags: []string{"-O3", "-fomit-frame-pointer", "-DVARIANT_REF"}},
}

// CVariantByKey returns the build named key.
func CVariantByKey(key string) (CVariant, bool) {
	for _, v := range CVariants {
		if v.Key == key {
			return v, true
		}
	}
	return CVariant{}, false
}

// PQCrystalsDir is where the source tree is looked for: $VG_PQCRYSTALS,
// or ../shared/peers/pq-crystals-dilithium beside the repository (from
// bench/, ../../shared/peers/pq-crystals-dilithium).
func PQCrystalsDir() string {
	if d := os.Getenv("VG_PQCRYSTALS"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "peers", "pq-crystals-dilithium")
}

// ErrNoPQCrystals reports a missing source tree or compiler.
var ErrNoPQCrystals = errors.New("pq-crystals' source or gcc not available")

// Sources of the builds, per mode (DILITHIUM_MODE 2, 3, 5 for ML-DSA-44,
// -65, -87; each has its own symbol prefix) and once (Keccak). keccak.c
// includes fips202.c, so fips202.c itself is not compiled.
var (
	cPerMode = map[string][]string{
		"avx2": {"sign.c", "packing.c", "polyvec.c", "poly.c", "ntt.S", "invntt.S", "pointwise.S",
			"shuffle.S", "consts.c", "rejsample.c", "rounding.c", "symmetric-shake.c"},
		"ref": {"sign.c", "packing.c", "polyvec.c", "poly.c", "ntt.c", "reduce.c", "rounding.c", "symmetric-shake.c"},
	}
	cOnce = map[string][]string{
		"avx2": {"keccak.c", "fips202x4.c", "f1600x4.S"},
		"ref":  {"keccak.c"},
	}
)

// randomizedLine is the line of config.h that turns hedged signing on;
// the build copy comments it out, so that rnd = 0^32.
const randomizedLine = "#define DILITHIUM_RANDOMIZED_SIGNING"

// BuildPQCrystals compiles variant v of the tree at src into a driver
// binary under tmp and returns its path.
func BuildPQCrystals(src string, v CVariant, tmp string) (string, error) {
	return buildPQCrystals(src, v, tmp, true)
}

// buildPQCrystals builds with hedged signing left on if deterministic is
// false (for the test that the driver then refuses to sign).
func buildPQCrystals(src string, v CVariant, tmp string, deterministic bool) (string, error) {
	if _, err := exec.LookPath("gcc"); err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoPQCrystals, err)
	}
	if _, err := os.Stat(filepath.Join(src, v.Dir, "sign.c")); err != nil {
		return "", fmt.Errorf("%w: %v (set VG_PQCRYSTALS)", ErrNoPQCrystals, err)
	}
	dir := filepath.Join(tmp, "pqcrystals-"+v.Key)
	if err := copyTree(filepath.Join(src, v.Dir), dir); err != nil {
		return "", err
	}
	cfg := filepath.Join(dir, "config.h")
	b, err := os.ReadFile(cfg)
	if err != nil {
		return "", err
	}
	if n := countLines(string(b), randomizedLine); n != 1 {
		return "", fmt.Errorf("%s: %d lines %q, want 1: the deterministic build cannot be made", cfg, n, randomizedLine)
	}
	if deterministic {
		b = []byte(strings.Replace(string(b), randomizedLine, "/* bench: randomized signing off */", 1))
	}
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		return "", err
	}
	for _, f := range []string{"driver.c", "routines.c", "keccak.c"} {
		b, err := cDriver.ReadFile("pqcrystals/" + f)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			return "", err
		}
	}
	flags := append(append([]string(nil), v.Flags...), "-I", dir, "-Wa,-I"+dir)
	type unit struct {
		obj, file string
		mode      int
	}
	var units []unit
	for _, mode := range []int{2, 3, 5} {
		for _, f := range cPerMode[v.Dir] {
			units = append(units, unit{filepath.Join(dir, fmt.Sprintf("%s.m%d.o", f, mode)), f, mode})
		}
	}
	// The routines are ML-DSA-65's; the driver and Keccak do not depend on
	// the mode.
	for _, f := range append(append([]string(nil), cOnce[v.Dir]...), "routines.c", "driver.c") {
		units = append(units, unit{filepath.Join(dir, f+".o"), f, 3})
	}
	// One gcc per CPU at a time; the objects link in the order above.
	errs := make([]error, len(units))
	sem := make(chan struct{}, runtime.NumCPU())
	var wg sync.WaitGroup
	for i, u := range units {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			args := append(append([]string(nil), flags...), "-DDILITHIUM_MODE="+strconv.Itoa(u.mode), "-c", "-o", u.obj, filepath.Join(dir, u.file))
			if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("gcc %s: %w\n%s", strings.Join(args, " "), err, out)
			}
		}()
	}
	wg.Wait()
	var objs []string
	for i, u := range units {
		if errs[i] != nil {
			return "", errs[i]
		}
		objs = append(objs, u.obj)
	}
	bin := filepath.Join(dir, "driver")
	args := append(append(append([]string(nil), v.Flags...), "-o", bin), objs...)
	if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("gcc (link): %w\n%s", err, out)
	}
	return bin, nil
}

func countLines(s, line string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) == line {
			n++
		}
	}
	return n
}

// linkText matches a symbolic link that a checkout without symlinks left
// as a file holding the link's target (e.g. avx2/fips202.c holds
// "../ref/fips202.c").
var linkText = regexp.MustCompile(`^[A-Za-z0-9_./-]+$`)

// copyTree copies the regular files of src into dst (subdirectories too),
// following symbolic links, whether real or left as text.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for range 4 {
			t := strings.TrimSpace(string(b))
			if len(b) > 200 || !linkText.MatchString(t) || !strings.Contains(t, "/") {
				break
			}
			target := filepath.Join(filepath.Dir(p), t)
			nb, err := os.ReadFile(target)
			if err != nil {
				break
			}
			p, b = target, nb
		}
		return os.WriteFile(out, b, 0o644)
	})
}

// CheckContext is the context string of case i in the identity check
// against pq-crystals: (7 i) mod 256 bytes of SHAKE128("vg bench
// context" ‖ BE32(i)), so that lengths 0 to 252 occur.
func CheckContext(i int) []byte {
	h := sha3.NewSHAKE128()
	h.Write([]byte("vg bench context"))
	h.Write(binary.BigEndian.AppendUint32(nil, uint32(i)))
	out := make([]byte, 256)
	h.Read(out)
	return out[:(7*i)%256]
}

// CheckPQCrystals runs the driver's check mode and compares every case
// with vg: the same public key and expanded private key from the same
// seed, the same deterministic signature on the same message with the
// empty context and with CheckContext(i), and, signed through vg's
// SignMu, the same signature for μ = H(tr ‖ 0 ‖ |ctx| ‖ ctx ‖ M, 64)
// (FIPS 204, Algorithm 2, line 10, and Algorithm 7, line 6). vg verifies
// each C signature. It returns the number of cases compared.
func CheckPQCrystals(bin string) (int, error) {
	cmd := exec.Command(bin, "check")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("%s check: %w\n%s", bin, err, stderr.String())
	}
	w := NewWorkload()
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 6 {
			return n, fmt.Errorf("check output line %d: %d fields, want 6", n+1, len(f))
		}
		i, err := strconv.Atoi(f[1])
		if err != nil || i < 0 || i >= Cases {
			return n, fmt.Errorf("check output line %d: bad case %q", n+1, f[1])
		}
		var bs [4][]byte
		for j := range bs {
			if bs[j], err = hex.DecodeString(f[2+j]); err != nil {
				return n, fmt.Errorf("check output line %d: %v", n+1, err)
			}
		}
		if err := compareCase(f[0], i, w, bs[0], bs[1], bs[2], bs[3]); err != nil {
			return n, err
		}
		seen[f[0]]++
		n++
	}
	if err := sc.Err(); err != nil {
		return n, err
	}
	for _, p := range Params {
		if seen[p] != Cases {
			return n, fmt.Errorf("check output holds %d cases of %s, want %d", seen[p], p, Cases)
		}
	}
	return n, nil
}

func vgParams(param string) (mldsa.Parameters, error) {
	switch param {
	case "ML-DSA-44":
		return mldsa.MLDSA44(), nil
	case "ML-DSA-65":
		return mldsa.MLDSA65(), nil
	case "ML-DSA-87":
		return mldsa.MLDSA87(), nil
	}
	return mldsa.Parameters{}, fmt.Errorf("unknown parameter set %q", param)
}

func compareCase(param string, i int, w *Workload, pk, sk, sig, sigCtx []byte) error {
	p, err := vgParams(param)
	if err != nil {
		return err
	}
	k, err := mldsa.NewPrivateKey(p, w.Seeds[i])
	if err != nil {
		return err
	}
	msg, ctx := w.Messages[i], CheckContext(i)
	where := fmt.Sprintf("%s case %d: vg and pq-crystals", param, i)
	if !bytes.Equal(k.PublicKey().Bytes(), pk) {
		return fmt.Errorf("%s give different public keys", where)
	}
	if !bytes.Equal(k.ExpandedBytes(), sk) {
		return fmt.Errorf("%s give different expanded private keys", where)
	}
	for _, c := range []struct {
		ctx []byte
		sig []byte
	}{{nil, sig}, {ctx, sigCtx}} {
		s, err := k.SignDeterministic(msg, &mldsa.Options{Context: string(c.ctx)})
		if err != nil {
			return err
		}
		if !bytes.Equal(s, c.sig) {
			return fmt.Errorf("%s give different signatures (context of %d bytes)", where, len(c.ctx))
		}
		// μ from the C key's tr (skEncode: ρ ‖ K ‖ tr ‖ …).
		h := sha3.NewSHAKE256()
		h.Write(sk[64:128])
		h.Write([]byte{0, byte(len(c.ctx))})
		h.Write(c.ctx)
		h.Write(msg)
		μ := make([]byte, 64)
		h.Read(μ)
		if s, err = k.SignMuDeterministic(μ); err != nil {
			return err
		}
		if !bytes.Equal(s, c.sig) {
			return fmt.Errorf("%s give different signatures for the same μ (context of %d bytes)", where, len(c.ctx))
		}
		pub, err := mldsa.NewPublicKey(p, pk)
		if err != nil {
			return err
		}
		if err := mldsa.Verify(pub, msg, c.sig, &mldsa.Options{Context: string(c.ctx)}); err != nil {
			return fmt.Errorf("%s: vg rejects pq-crystals' signature: %v", where, err)
		}
	}
	return nil
}
