package vectors

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/internal/modroot"
)

// These tests plant violations and check that the runner reports them:
// a runner that cannot fail proves nothing.

// recorder is a reporter that keeps the errors it is given.
type recorder struct{ errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestCheckCounts(t *testing.T) {
	for _, c := range []struct {
		fc FileCount
		ok bool
	}{
		{FileCount{File: "f", Declared: 3, Ran: 3, Passed: 3}, true},
		{FileCount{File: "f", Declared: 0, Ran: 0, Passed: 0}, false},
		{FileCount{File: "f", Declared: 4, Ran: 3, Passed: 3}, false},
		{FileCount{File: "f", Declared: 3, Ran: 3, Passed: 2}, false},
	} {
		if err := checkCounts(c.fc); (err == nil) != c.ok {
			t.Errorf("checkCounts(%+v) = %v", c.fc, err)
		}
	}
}

// smallWycheproof writes a file holding the first group of a real
// Wycheproof file, cut to its first n tests, after edit changes it.
func smallWycheproof(t *testing.T, name string, n int, edit func(file, group map[string]any, tests []any)) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Dir(t), "wycheproof", name))
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	group := file["testGroups"].([]any)[0].(map[string]any)
	tests := group["tests"].([]any)[:n]
	group["tests"] = tests
	file["testGroups"] = []any{group}
	file["numberOfTests"] = n
	if edit != nil {
		edit(file, group, tests)
	}
	out, err := json.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runSmall runs one small Wycheproof file and returns its counts and the
// errors reported.
func runSmall(t *testing.T, path, name string, impl Impl) (FileCount, []string, error) {
	fc := FileCount{File: name}
	r := &recorder{}
	err := runWycheproof(path, name, impl, &fc, &caseRunner{t: r})
	return fc, r.errs, err
}

func TestRunnerPasses(t *testing.T) {
	for _, name := range []string{"mldsa_44_verify_test.json", "mldsa_44_sign_seed_test.json", "mldsa_44_sign_noseed_test.json"} {
		path := smallWycheproof(t, name, 3, nil)
		fc, errs, err := runSmall(t, path, name, spec{})
		if err != nil || len(errs) > 0 || checkCounts(fc) != nil || fc.Ran != 3 {
			t.Errorf("%s: %+v, %v, %v", name, fc, errs, err)
		}
	}
}

func TestRunnerCatchesLayout(t *testing.T) {
	const name = "mldsa_44_verify_test.json"
	for what, edit := range map[string]func(file, group map[string]any, tests []any){
		"unknown flag": func(_, _ map[string]any, tests []any) {
			tc := tests[0].(map[string]any)
			tc["flags"] = append(tc["flags"].([]any), "SomethingNew")
		},
		"unknown test field": func(_, _ map[string]any, tests []any) {
			tests[0].(map[string]any)["keyFormat"] = "seed"
		},
		"unknown result": func(_, _ map[string]any, tests []any) {
			tests[0].(map[string]any)["result"] = "acceptable"
		},
		"unknown group field": func(_, group map[string]any, _ []any) {
			group["publicKeyPem"] = "x"
		},
		"unknown group type": func(_, group map[string]any, _ []any) {
			group["type"] = "MlDsaSign"
		},
	} {
		path := smallWycheproof(t, name, 3, edit)
		fc, errs, err := runSmall(t, path, name, spec{})
		if err != nil {
			t.Errorf("%s: %v", what, err)
			continue
		}
		if len(errs) == 0 || fc.Passed == fc.Ran || checkCounts(fc) == nil ||
			!strings.Contains(strings.Join(errs, "\n"), errLayout.Error()) {
			t.Errorf("%s not caught: %+v, %v", what, fc, errs)
		}
	}
	// A file that declares more tests than it holds.
	path := smallWycheproof(t, name, 3, func(file, _ map[string]any, _ []any) { file["numberOfTests"] = 4 })
	if fc, _, err := runSmall(t, path, name, spec{}); err == nil && checkCounts(fc) == nil {
		t.Errorf("numberOfTests mismatch not caught: %+v", fc)
	}
}

// acceptAll verifies everything and signs nothing right.
type acceptAll struct{ spec }

func (acceptAll) Verify(string, []byte, Message, []byte) error { return nil }
func (acceptAll) Sign(string, []byte, Message, []byte) ([]byte, error) {
	return []byte("signature"), nil
}

func TestRunnerCatchesWrongImpl(t *testing.T) {
	for _, name := range []string{"mldsa_44_verify_test.json", "mldsa_44_sign_noseed_test.json", "mldsa_44_sign_seed_test.json"} {
		// Take enough tests that the verify file includes an invalid one.
		path := smallWycheproof(t, name, 20, nil)
		fc, errs, err := runSmall(t, path, name, acceptAll{})
		if err != nil || len(errs) == 0 || checkCounts(fc) == nil {
			t.Errorf("%s: wrong implementation not caught: %+v, %v", name, fc, err)
		}
	}
	// A signature one bit off.
	name := "mldsa_44_sign_seed_test.json"
	path := smallWycheproof(t, name, 1, func(_, _ map[string]any, tests []any) {
		tc := tests[0].(map[string]any)
		sig, _ := hex.DecodeString(tc["sig"].(string))
		sig[len(sig)/2] ^= 1
		tc["sig"] = hex.EncodeToString(sig)
	})
	if fc, errs, _ := runSmall(t, path, name, spec{}); len(errs) == 0 || fc.Passed != 0 {
		t.Errorf("wrong expected signature not caught: %+v", fc)
	}
	// A KeyGen that returns another public key fails the group.
	path = smallWycheproof(t, name, 1, func(_, group map[string]any, _ []any) {
		group["privateSeed"] = strings.Repeat("00", 32)
	})
	if fc, errs, _ := runSmall(t, path, name, spec{}); len(errs) == 0 || fc.Passed != 0 {
		t.Errorf("public key mismatch not caught: %+v", fc)
	}
}

// smallACVP writes an ACVP mode directory holding one test of the first
// group of a real one, after edit changes the group.
func smallACVP(t *testing.T, mode string, edit func(group map[string]any)) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), mode)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"prompt.json", "expectedResults.json"} {
		b, err := os.ReadFile(filepath.Join(Dir(t), "acvp", mode, f))
		if err != nil {
			t.Fatal(err)
		}
		var file map[string]any
		if err := json.Unmarshal(b, &file); err != nil {
			t.Fatal(err)
		}
		group := file["testGroups"].([]any)[0].(map[string]any)
		group["tests"] = group["tests"].([]any)[:1]
		file["testGroups"] = []any{group}
		if f == "prompt.json" && edit != nil {
			edit(group)
		}
		out, _ := json.Marshal(file)
		if err := os.WriteFile(filepath.Join(dir, f), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRunnerACVP(t *testing.T) {
	for _, c := range []struct {
		mode, what string
		edit       func(map[string]any)
		ok         bool
	}{
		{"ML-DSA-keyGen-FIPS204", "as is", nil, true},
		{"ML-DSA-sigGen-FIPS204", "as is", nil, true},
		{"ML-DSA-sigVer-FIPS204", "as is", nil, true},
		{"ML-DSA-keyGen-FIPS204", "keyFormat group field", func(g map[string]any) { g["keyFormat"] = "seed" }, false},
		{"ML-DSA-sigGen-FIPS204", "unknown interface", func(g map[string]any) { g["signatureInterface"] = "streaming" }, false},
		{"ML-DSA-sigGen-FIPS204", "unknown preHash", func(g map[string]any) { g["preHash"] = "both" }, false},
		{"ML-DSA-keyGen-FIPS204", "result without prompt", func(g map[string]any) { g["tests"] = []any{} }, false},
		{"ML-DSA-sigVer-FIPS204", "externalMu missing", func(g map[string]any) {
			g["signatureInterface"] = "internal"
			delete(g, "preHash")
		}, false},
	} {
		dir := smallACVP(t, c.mode, c.edit)
		fc := FileCount{File: c.mode}
		r := &recorder{}
		err := runACVP(dir, c.mode, spec{}, &fc, &caseRunner{t: r})
		ok := err == nil && len(r.errs) == 0 && checkCounts(fc) == nil
		if ok != c.ok {
			t.Errorf("%s, %s: passed = %v (%+v, %v, %v)", c.mode, c.what, ok, fc, r.errs, err)
		}
	}
}

func TestUnknownFiles(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"acvp/ML-DSA-keyGen-FIPS204", "wycheproof"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := checkNoUnknownFiles(dir); err != nil {
		t.Errorf("known layout: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "wycheproof", "mldsa_44_sign_mu_test.json"), nil, 0o644)
	os.Mkdir(filepath.Join(dir, "acvp", "ML-DSA-sigGen-FIPS204-tr1"), 0o755)
	err := checkNoUnknownFiles(dir)
	if err == nil || !strings.Contains(err.Error(), "mldsa_44_sign_mu_test.json") || !strings.Contains(err.Error(), "tr1") {
		t.Errorf("unknown files not reported: %v", err)
	}
}

// fakeTB records Skip and Fatal instead of stopping the test.
type fakeTB struct {
	testing.TB
	skipped, fatal string
}

func (f *fakeTB) Helper()           {}
func (f *fakeTB) Skip(args ...any)  { f.skipped = fmt.Sprint(args...) }
func (f *fakeTB) Fatal(args ...any) { f.fatal = fmt.Sprint(args...) }

func TestDirMissing(t *testing.T) {
	t.Setenv("VG_VECTORS", filepath.Join(t.TempDir(), "absent"))
	t.Setenv("VG_REQUIRE_VECTORS", "")
	t.Setenv("CI", "")
	f := &fakeTB{TB: t}
	Dir(f)
	if f.skipped == "" || f.fatal != "" {
		t.Errorf("without CI: skipped %q, fatal %q", f.skipped, f.fatal)
	}
	// Under CI=true the vectors are required in a checkout of vg and
	// skipped where vg is a dependency (its module cache copy, as in a
	// user's `go test all`); these tests run in either.
	root, _ := modroot.Find()
	t.Setenv("CI", "true")
	checkout := !inModCache(root, modCache(os.Getenv))
	f = &fakeTB{TB: t}
	Dir(f)
	switch {
	case checkout && (f.fatal == "" || f.skipped != ""):
		t.Errorf("with CI=true in a checkout: skipped %q, fatal %q", f.skipped, f.fatal)
	case !checkout && (f.skipped == "" || f.fatal != ""):
		t.Errorf("with CI=true in the module cache: skipped %q, fatal %q", f.skipped, f.fatal)
	}
	if msg := f.fatal + f.skipped; !strings.Contains(msg, "VG_VECTORS") {
		t.Errorf("message does not say how to fix it: %q", msg)
	}
	t.Setenv("CI", "")
	t.Setenv("VG_REQUIRE_VECTORS", "1")
	f = &fakeTB{TB: t}
	Dir(f)
	if f.fatal == "" || f.skipped != "" || !strings.Contains(f.fatal, "VG_REQUIRE_VECTORS=1") {
		t.Errorf("with VG_REQUIRE_VECTORS=1: skipped %q, fatal %q", f.skipped, f.fatal)
	}
}

// required fails on absent vectors under VG_REQUIRE_VECTORS=1 anywhere,
// and under CI=true only in a checkout of vg, not in a dependent module's
// module cache (where the vectors cannot be).
func TestRequired(t *testing.T) {
	cache := filepath.FromSlash("/home/u/go/pkg/mod")
	inCache := filepath.Join(cache, "github.com", "vg-crypto", "vg@v0.3.0")
	checkout := filepath.FromSlash("/home/u/src/vg")
	for _, tc := range []struct {
		env   map[string]string
		root  string
		cache string
		want  bool
	}{
		{env: nil, root: checkout, want: false},
		{env: map[string]string{"CI": "1"}, root: checkout, want: false},
		{env: map[string]string{"CI": "true"}, root: checkout, cache: cache, want: true},
		{env: map[string]string{"CI": "true"}, root: checkout, want: true},
		{env: map[string]string{"CI": "true"}, root: inCache, cache: cache, want: false},
		// A cache elsewhere, or unknown: the module@version name decides.
		{env: map[string]string{"CI": "true"}, root: inCache, cache: filepath.FromSlash("/other"), want: false},
		{env: map[string]string{"CI": "true"}, root: inCache, want: false},
		// Under the cache without the name: a replaced or extracted copy.
		{env: map[string]string{"CI": "true"}, root: filepath.Join(cache, "cache", "x"), cache: cache, want: false},
		// Beside the cache, whose name it extends.
		{env: map[string]string{"CI": "true"}, root: cache + "-src", cache: cache, want: true},
		{env: map[string]string{"CI": "true"}, root: "", cache: cache, want: false},
		{env: map[string]string{"VG_REQUIRE_VECTORS": "1"}, root: inCache, cache: cache, want: true},
		{env: map[string]string{"VG_REQUIRE_VECTORS": "1"}, root: "", want: true},
		{env: map[string]string{"VG_REQUIRE_VECTORS": "0", "CI": "true"}, root: inCache, cache: cache, want: false},
	} {
		getenv := func(k string) string { return tc.env[k] }
		got, why := required(getenv, tc.root, func(func(string) string) string { return tc.cache })
		if got != tc.want || why == "" {
			t.Errorf("required(%v, root %q, cache %q) = %v (%s), want %v", tc.env, tc.root, tc.cache, got, why, tc.want)
		}
	}
}

// modCache prefers $GOMODCACHE and otherwise asks the go command.
func TestModCache(t *testing.T) {
	if got := modCache(func(k string) string { return map[string]string{"GOMODCACHE": "/x/mod"}[k] }); got != "/x/mod" {
		t.Errorf("modCache with GOMODCACHE=/x/mod = %q", got)
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH: ", err)
	}
	if got := modCache(func(string) string { return "" }); got == "" || !filepath.IsAbs(got) {
		t.Errorf("modCache from go env = %q, want an absolute directory", got)
	}
}

func TestCompareCounts(t *testing.T) {
	declared, err := Declared(Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(declared) != len(Files()) {
		t.Fatalf("Declared lists %d files, Files %d", len(declared), len(Files()))
	}
	// perfect is a run that did exactly what the files declare.
	perfect := func() []FileCount {
		var ran []FileCount
		for _, d := range declared {
			r := FileCount{File: d.File, Declared: d.Declared, Ran: d.Declared, Passed: d.Declared}
			for _, g := range d.Groups {
				r.Groups = append(r.Groups, GroupCount{Group: g.Group, Ran: g.Ran, Passed: g.Ran})
			}
			ran = append(ran, r)
		}
		return ran
	}
	if err := CompareCounts(perfect(), declared); err != nil {
		t.Fatalf("perfect run: %v", err)
	}
	for what, plant := range map[string]func([]FileCount) []FileCount{
		"dropped file":  func(r []FileCount) []FileCount { return r[1:] },
		"dropped group": func(r []FileCount) []FileCount { r[4].Groups = r[4].Groups[1:]; return r },
		"short group": func(r []FileCount) []FileCount {
			r[1].Groups[2].Ran--
			r[1].Groups[2].Passed--
			r[1].Groups[3].Ran++
			r[1].Groups[3].Passed++
			return r
		},
		"failed case": func(r []FileCount) []FileCount { r[0].Groups[0].Passed--; return r },
	} {
		if err := CompareCounts(plant(perfect()), declared); err == nil {
			t.Errorf("%s not caught", what)
		}
	}
	total := 0
	for _, d := range declared {
		total += d.Declared
	}
	t.Logf("%d files declare %d cases", len(declared), total)
}
