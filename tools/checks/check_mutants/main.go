// Command check_mutants keeps `vg prove` honest: it applies each mutant of
// mutants.go (an edit of go/asm the checker must reject: wrong constants,
// swapped operands, bounds off by one, secret branches and addresses,
// stores out of bounds, stack and FP tricks, edits that change the bytes
// but not what a reader of the text sees) and requires `vg prove` on the
// mutated routine to fail, with a failing row other than the comparison of
// text and bytes (so the proof itself catches it). A mutant that survives
// is a bug in the checker, never a reason to drop the mutant.
//
// Mutants of different routines in different files share one vg prove run
// (see batch), each judged by its own routine's rows only; -j runs go on
// at once, each in a copy of the tree of its own.
//
// A mutant the checker is known to miss (a routine whose functional
// correctness is only tested, and a bug on inputs its random test never
// draws) is marked Survives with the reason: it must survive, so the list
// states exactly what the checker misses; if one is caught, the mark is
// stale and the check fails until it is removed. Every routine of go/asm
// has its functional correctness proven today, and no mutant is marked.
//
// Usage, from the repository root:
//
//	go run ./tools/checks/check_mutants [-root dir] [-run regexp] [-v] [-j n]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vg-crypto/vg/Spec/check"
	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/tools/checks/internal/diag"
	"github.com/vg-crypto/vg/tools/checks/internal/prove"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
)

func main() {
	root := flag.String("root", ".", "repository root")
	only := flag.String("run", "", "only mutants whose name matches this regular expression")
	verbose := flag.Bool("v", false, "print each mutant's outcome")
	jobs := flag.Int("j", 2, "mutants checked at once, each in a copy of the tree of its own")
	flag.Parse()
	l, summary, err := run(*root, *only, *verbose, *jobs)
	diag.Exit("check_mutants", l, summary, err)
}

// runs is vg prove's -n: enough random inputs for the functional tests to
// see any bug that is not confined to rare inputs.
const runs = "300"

func run(root, only string, verbose bool, jobs int) (diag.List, string, error) {
	r, err := repo.Open(root)
	if err != nil {
		return nil, "", err
	}
	var re *regexp.Regexp
	if only != "" {
		if re, err = regexp.Compile(only); err != nil {
			return nil, "", err
		}
	}
	if jobs < 1 {
		return nil, "", fmt.Errorf("-j must be at least 1")
	}
	var todo []Mutant
	for _, m := range mutants {
		if re == nil || re.MatchString(m.Name) {
			todo = append(todo, m)
		}
	}
	if len(todo) == 0 {
		return nil, "", fmt.Errorf("no mutant matches %q", only)
	}
	jobs = min(jobs, len(todo))
	tmp, err := os.MkdirTemp("", "vg-mutants-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "vg")
	build := exec.Command("go", "build", "-o", bin, "./cmd/vg")
	build.Dir = r.Root
	if out, err := build.CombinedOutput(); err != nil {
		return nil, "", fmt.Errorf("go build ./cmd/vg: %v\n%s", err, out)
	}
	// Scratch copies of the tree, one per worker: a mutant edits its
	// copy's go/asm, so the Go command builds exactly what it would build
	// from such a tree (headers included, which -overlay cannot provide).
	trees := make([]string, jobs)
	for i := range trees {
		trees[i] = filepath.Join(tmp, fmt.Sprintf("tree%d", i))
		if err := copyTree(r.Root, trees[i]); err != nil {
			return nil, "", err
		}
	}
	vectors := os.Getenv("VG_VECTORS")
	if vectors == "" {
		vectors = filepath.Join(filepath.Dir(r.Root), "shared", "vectors")
	}
	start := time.Now()
	results := make([]mutantResult, len(todo))
	batches := batch(todo)
	next := make(chan []int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range next {
				res := checkBatch(todo, b, bin, trees[w], vectors)
				// A batch vg prove could not check as a whole (a mutant
				// that does not build takes the others down) is checked
				// one mutant at a time.
				if len(b) > 1 && anyErrored(res) {
					for k, i := range b {
						res[k] = checkBatch(todo, []int{i}, bin, trees[w], vectors)[0]
					}
				}
				for k, i := range b {
					results[i] = res[k]
					if verbose {
						mu.Lock()
						fmt.Printf("%-40s %-6v %5.1fs %s\n", todo[i].Name, res[k].caught, res[k].seconds, res[k].why)
						mu.Unlock()
					}
				}
			}
		}()
	}
	for _, b := range batches {
		next <- b
	}
	close(next)
	wg.Wait()
	var l diag.List
	killed, survived := 0, 0
	for i, res := range results {
		m := todo[i]
		switch {
		case res.err != nil:
			return nil, "", res.err
		case res.caught == errored:
			l.Addf("tools/checks/check_mutants/mutants.go", 0, "%s: vg prove could not check it: %s", m.Name, res.why)
		case res.caught == yes && m.Survives != "":
			l.Addf("tools/checks/check_mutants/mutants.go", 0, "%s: marked as surviving (%s) but caught (%s): remove the mark", m.Name, m.Survives, res.why)
		case res.caught == yes:
			killed++
		case m.Survives != "":
			survived++
		default:
			l.Addf("tools/checks/check_mutants/mutants.go", 0, "%s: SURVIVED: vg prove accepts it (%s); this is a checker bug", m.Name, res.why)
		}
	}
	return l, fmt.Sprintf("%d of %d mutants caught, %d known survivors (marked Survives), %.0f s (%d vg prove runs, %d at once)",
		killed, len(todo), survived, time.Since(start).Seconds(), len(batches), jobs), nil
}

// mutantResult is the outcome of one mutant; err is a failure to restore
// the tree, which ends the check.
type mutantResult struct {
	caught  outcome
	why     string
	seconds float64
	err     error
}

// batch groups the mutants (indices into ms) so that the mutants of a
// group edit different files and mutate different routines, none of which
// calls another, and none adds a file (a header reaches every file that
// includes it): one vg prove run then checks a group, each mutant judged
// by its own routine's rows. A routine's obligations depend only on its
// own bytes and data and its callees' (their contracts and their frames),
// and its callees are not checked (-no-callees), so the other edits of its
// group cannot change its rows.
func batch(ms []Mutant) [][]int {
	type group struct {
		idx      []int
		files    map[string]bool
		routines map[string]bool
		alone    bool
	}
	var gs []*group
	for i, m := range ms {
		files := map[string]bool{}
		for _, e := range m.Edits {
			files[e.File] = true
		}
		alone := len(m.Files) > 0
		var g *group
		for _, c := range gs {
			if alone || c.alone || c.routines[m.Routine] || calls(m.Routine, c.routines) {
				continue
			}
			clash := false
			for f := range files {
				clash = clash || c.files[f]
			}
			if !clash {
				g = c
				break
			}
		}
		if g == nil {
			g = &group{files: map[string]bool{}, routines: map[string]bool{}, alone: alone}
			gs = append(gs, g)
		}
		g.idx = append(g.idx, i)
		g.routines[m.Routine] = true
		for f := range files {
			g.files[f] = true
		}
	}
	out := make([][]int, len(gs))
	for i, g := range gs {
		out[i] = g.idx
	}
	return out
}

// calls reports whether routine calls one of routines or one of them calls
// it (by their contracts).
func calls(routine string, routines map[string]bool) bool {
	for r := range routines {
		for _, pair := range [][2]string{{routine, r}, {r, routine}} {
			if c := contract.Lookup(pair[0]); c != nil && slices.Contains(c.Calls, pair[1]) {
				return true
			}
		}
	}
	return false
}

func anyErrored(rs []mutantResult) bool {
	for _, r := range rs {
		if r.caught == errored {
			return true
		}
	}
	return false
}

// checkBatch applies the mutants b of ms to the tree at root, runs vg
// prove on their routines and restores the tree; the results follow b.
func checkBatch(ms []Mutant, b []int, bin, root, vectors string) []mutantResult {
	out := make([]mutantResult, len(b))
	var restores []func() error
	undo := func() error {
		// Later edits first: each restore puts back what its apply saw.
		for k := len(restores) - 1; k >= 0; k-- {
			if err := restores[k](); err != nil {
				return err
			}
		}
		return nil
	}
	var routines []string
	for k, i := range b {
		restore, err := ms[i].apply(filepath.Join(root, "go", "asm"))
		restores = append(restores, restore)
		if err != nil {
			if rerr := undo(); rerr != nil {
				return fill(out, mutantResult{err: rerr})
			}
			out[k] = mutantResult{caught: errored, why: "applying the edits: " + err.Error()}
			return out
		}
		routines = append(routines, ms[i].Routine)
	}
	t0 := time.Now()
	rows, perr := proveMutant(bin, root, vectors, strings.Join(routines, ","))
	if err := undo(); err != nil {
		return fill(out, mutantResult{err: err})
	}
	secs := time.Since(t0).Seconds()
	for k, i := range b {
		caught, why := verdict(rowsOf(rows, ms[i].Routine), perr)
		out[k] = mutantResult{caught: caught, why: why, seconds: secs}
	}
	return out
}

func fill(rs []mutantResult, r mutantResult) []mutantResult {
	for k := range rs {
		rs[k] = r
	}
	return rs
}

// rowsOf keeps the rows of one routine (TEXT symbol): those of its
// contract's routine and variant, and those vg prove names by the symbol
// (a routine it could not decode, its text or declaration).
func rowsOf(rows []prove.Row, symbol string) []prove.Row {
	c := contract.Lookup(symbol)
	var out []prove.Row
	for _, r := range rows {
		if r.Routine == symbol || c != nil && r.Routine == c.Routine && r.Variant == c.Variant {
			out = append(out, r)
		}
	}
	return out
}

type outcome int

const (
	no outcome = iota
	yes
	errored
)

func (o outcome) String() string { return [...]string{"ALIVE", "caught", "error"}[o] }

// proveMutant runs vg prove on routines (TEXT symbols, separated by
// commas) of the tree at root.
func proveMutant(bin, root, vectors, routines string) ([]prove.Row, error) {
	// Only the mutated routine changed: its callees, unchanged, need no
	// check here (vg prove checks them on the tree as it is), and a
	// mutant is caught by a failing row, which they cannot give. One
	// failing row decides, so each routine's check stops at its first
	// failure (-first-failure; a routine without one is checked in full).
	cmd := exec.Command(bin, "prove", "-json", "-n", runs, "-routine", routines, "-no-callees", "-one-build", "-first-failure")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "VG_VECTORS="+vectors)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if stdout.Len() == 0 {
		// No report at all: the tree did not build, or vg prove crashed.
		return nil, fmt.Errorf("no report (%v): %s", err, firstLine(stderr.String()))
	}
	var rows []prove.Row
	if jerr := json.Unmarshal(stdout.Bytes(), &rows); jerr != nil {
		return nil, fmt.Errorf("report: %v", jerr)
	}
	if err == nil {
		for _, r := range rows {
			if r.Status == "failing" {
				return rows, fmt.Errorf("vg prove exited 0 with a failing row")
			}
		}
	}
	return rows, nil
}

// verdict: caught when some row other than the text comparison fails.
func verdict(rows []prove.Row, err error) (outcome, string) {
	if err != nil {
		return errored, err.Error()
	}
	var text, why string
	for _, r := range rows {
		if r.Status != "failing" {
			continue
		}
		if r.Obligation == "text = bytes" {
			text = " (the text comparison also fails)"
			continue
		}
		// A row vg prove did not check (-first-failure) names what
		// failed first; a row that failed on its own is named first.
		d, first := strings.CutPrefix(r.Detail, check.NotChecked)
		if first && why == "" {
			why = d
		}
		if !first {
			why = r.Obligation + ": " + d
			break
		}
	}
	if why == "" {
		return no, "every obligation at its level" + text
	}
	if len(why) > 120 {
		why = why[:117] + "..."
	}
	return yes, why + text
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// Mutant is one edit of go/asm.
type Mutant struct {
	Name    string
	Routine string // the TEXT symbol vg prove checks
	Edits   []Edit
	// Files are added to go/asm (e.g. a local textflag.h).
	Files map[string]string
	// Survives gives the reason a mutant is expected to survive (see the
	// package comment); empty for every mutant the checker must catch.
	Survives string
}

// Edit replaces the Nth occurrence (1-based; -1 for the last) of Find in
// File by Replace; with Text, in that TEXT symbol's body only (up to the
// next TEXT), for files that hold several symbols. An edit whose text is
// not found fails the check, so the catalogue cannot silently go stale.
type Edit struct {
	File          string
	Text          string
	Find, Replace string
	N             int
}

// apply edits the files of asmDir; restore puts every file back.
func (m Mutant) apply(asmDir string) (restore func() error, err error) {
	saved := map[string][]byte{} // nil: the file did not exist
	restore = func() error {
		for name, data := range saved {
			p := filepath.Join(asmDir, name)
			var err error
			if data == nil {
				err = os.Remove(p)
			} else {
				err = os.WriteFile(p, data, 0o644)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	files := map[string]string{}
	read := func(name string) (string, error) {
		if src, ok := files[name]; ok {
			return src, nil
		}
		data, err := os.ReadFile(filepath.Join(asmDir, name))
		if os.IsNotExist(err) {
			saved[name] = nil
			return "", nil
		}
		if err != nil {
			return "", err
		}
		saved[name] = data
		return string(data), nil
	}
	for _, e := range m.Edits {
		src, err := read(e.File)
		if err != nil {
			return restore, err
		}
		lo, hi := 0, len(src)
		if e.Text != "" {
			lo = strings.Index(src, "TEXT ·"+e.Text+"(SB)")
			if lo < 0 {
				return restore, fmt.Errorf("%s: TEXT ·%s(SB) not found", e.File, e.Text)
			}
			if j := strings.Index(src[lo:], "\nTEXT "); j >= 0 {
				hi = lo + j
			}
		}
		at := nth(src[lo:hi], e.Find, e.N)
		if at < 0 {
			return restore, fmt.Errorf("%s: occurrence %d of %q not found", e.File, e.N, e.Find)
		}
		at += lo
		files[e.File] = src[:at] + e.Replace + src[at+len(e.Find):]
	}
	for name, content := range m.Files {
		if rest, ok := strings.CutPrefix(content, "@goroot:"); ok {
			// "@goroot:path\n…": a file of GOROOT, then more lines.
			path, more, _ := strings.Cut(rest, "\n")
			data, err := os.ReadFile(filepath.Join(goroot(), path))
			if err != nil {
				return restore, err
			}
			content = string(data) + more
		}
		src, err := read(name)
		if err != nil {
			return restore, err
		}
		files[name] = src + content
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(asmDir, name), []byte(content), 0o644); err != nil {
			return restore, err
		}
	}
	return restore, nil
}

// copyTree copies the repository (without .git) to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}

func nth(s, find string, n int) int {
	if n == -1 {
		return strings.LastIndex(s, find)
	}
	if n == 0 {
		n = 1
	}
	off := 0
	for k := 1; ; k++ {
		i := strings.Index(s[off:], find)
		if i < 0 {
			return -1
		}
		if k == n {
			return off + i
		}
		off += i + len(find)
	}
}

func goroot() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
