package vectors

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// GroupCount is what Run did with one test group of a file.
type GroupCount struct {
	Group  string // e.g. "tgId 7 (ML-DSA-44, internal, externalMu)" or "group 3"
	Ran    int
	Passed int
}

// FileCount is what Run did with one vector file (for ACVP, one mode: its
// prompt.json and expectedResults.json together). Declared is the number
// of cases the file itself declares (Wycheproof numberOfTests, ACVP tcIds);
// Run fails a file unless Ran == Declared == Passed and Ran > 0.
type FileCount struct {
	File     string // relative to Dir, e.g. "wycheproof/mldsa_44_verify_test.json"
	Declared int
	Ran      int
	Passed   int
	Groups   []GroupCount
}

// acvpModes are the ACVP vector sets Run reads, under acvp/.
var acvpModes = []string{"ML-DSA-keyGen-FIPS204", "ML-DSA-sigGen-FIPS204", "ML-DSA-sigVer-FIPS204"}

// wycheproofFiles are the Wycheproof files Run reads, under wycheproof/.
func wycheproofFiles() []string {
	var files []string
	for _, kl := range []string{"44", "65", "87"} {
		for _, kind := range []string{"sign_seed", "sign_noseed", "verify"} {
			files = append(files, "mldsa_"+kl+"_"+kind+"_test.json")
		}
	}
	return files
}

// Files lists the vector files Run reads, relative to Dir, in the order it
// runs them (an ACVP mode is a directory holding prompt.json and
// expectedResults.json).
func Files() []string {
	var files []string
	for _, m := range acvpModes {
		files = append(files, "acvp/"+m)
	}
	for _, f := range wycheproofFiles() {
		files = append(files, "wycheproof/"+f)
	}
	return files
}

// Run runs every ACVP and Wycheproof ML-DSA vector against impl, one
// subtest per file. The files run in parallel, so impl must be safe for
// concurrent use.
func Run(t *testing.T, impl Impl) {
	RunCounts(t, impl)
}

// RunCounts is Run, returning what it ran per file and group, so that a
// caller can check that no file or group was dropped.
func RunCounts(t *testing.T, impl Impl) []FileCount {
	t.Helper()
	dir := Dir(t)
	if err := checkNoUnknownFiles(dir); err != nil {
		t.Error(err)
	}
	counts := make([]FileCount, 0, len(acvpModes)+len(wycheproofFiles()))
	// The files run as parallel subtests of one group, which returns when
	// all of them have finished.
	t.Run("files", func(t *testing.T) {
		for _, m := range acvpModes {
			counts = append(counts, FileCount{File: "acvp/" + m})
			runFile(t, &counts[len(counts)-1], func(fc *FileCount, c *caseRunner) error {
				return runACVP(filepath.Join(dir, "acvp", m), m, impl, fc, c)
			})
		}
		for _, f := range wycheproofFiles() {
			counts = append(counts, FileCount{File: "wycheproof/" + f})
			runFile(t, &counts[len(counts)-1], func(fc *FileCount, c *caseRunner) error {
				return runWycheproof(filepath.Join(dir, "wycheproof", f), f, impl, fc, c)
			})
		}
	})
	total, passed := 0, 0
	for _, fc := range counts {
		total += fc.Ran
		passed += fc.Passed
	}
	t.Logf("all files: ran %d, passed %d", total, passed)
	if declared, err := Declared(dir); err != nil {
		t.Error(err)
	} else if err := CompareCounts(counts, declared); err != nil {
		t.Error(err)
	}
	return counts
}

// checkNoUnknownFiles fails if the vector directory holds an ML-DSA vector
// file or ACVP mode that Run does not read, so that a new file is not
// silently skipped.
func checkNoUnknownFiles(dir string) error {
	var unknown []string
	modes, _ := filepath.Glob(filepath.Join(dir, "acvp", "ML-DSA-*"))
	for _, m := range modes {
		if !slices.Contains(acvpModes, filepath.Base(m)) {
			unknown = append(unknown, "acvp/"+filepath.Base(m))
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "wycheproof", "*_test.json"))
	for _, f := range files {
		if !slices.Contains(wycheproofFiles(), filepath.Base(f)) {
			unknown = append(unknown, "wycheproof/"+filepath.Base(f))
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("vector files the runner does not know (add them to the runner): %v", unknown)
	}
	return nil
}

// runFile runs one file as a parallel subtest and checks its counts.
func runFile(t *testing.T, fc *FileCount, body func(*FileCount, *caseRunner) error) {
	name := fc.File
	t.Run(name, func(t *testing.T) {
		t.Parallel()
		start := time.Now()
		c := &caseRunner{t: t}
		if err := body(fc, c); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		t.Logf("%s: ran %d, passed %d (declared %d) in %v", name, fc.Ran, fc.Passed, fc.Declared, time.Since(start).Round(time.Millisecond))
		if err := checkCounts(*fc); err != nil {
			t.Error(err)
		}
	})
}

// checkCounts fails a file that ran no case, ran another number of cases
// than it declares, or had a case fail.
func checkCounts(fc FileCount) error {
	switch {
	case fc.Ran == 0:
		return fmt.Errorf("%s: ran no cases", fc.File)
	case fc.Ran != fc.Declared:
		return fmt.Errorf("%s: ran %d cases, but the file declares %d", fc.File, fc.Ran, fc.Declared)
	case fc.Passed != fc.Ran:
		return fmt.Errorf("%s: %d of %d cases failed", fc.File, fc.Ran-fc.Passed, fc.Ran)
	}
	return nil
}

// reporter is the part of testing.TB a caseRunner reports to.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// caseRunner runs cases, counting them into the current group.
type caseRunner struct {
	t     reporter
	group *GroupCount
}

func (c *caseRunner) startGroup(fc *FileCount, name string) {
	fc.Groups = append(fc.Groups, GroupCount{Group: name})
	c.group = &fc.Groups[len(fc.Groups)-1]
}

// run runs one case; a nil error is a pass. A panic in the implementation
// is a failure of the case, not of the whole run.
func (c *caseRunner) run(fc *FileCount, id int, f func() error) {
	c.t.Helper()
	fc.Ran++
	c.group.Ran++
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return f()
	}()
	if err != nil {
		c.t.Errorf("%s, case %d: %v", c.group.Group, id, err)
		return
	}
	fc.Passed++
	c.group.Passed++
}

var errLayout = errors.New("unknown vector layout")

func layoutErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errLayout, fmt.Sprintf(format, args...))
}

// wantEqual compares an output with the expected one.
func wantEqual(what string, got, want []byte) error {
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s differs: got %d bytes %x…, want %d bytes %x…", what, len(got), head(got), len(want), head(want))
	}
	return nil
}

func head(b []byte) []byte { return b[:min(len(b), 16)] }
