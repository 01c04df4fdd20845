// Command check_ct measures the constant time of the whole library, Go code
// included: it builds ./tools/checks/check_ct/driver with the tag valgrind
// on each code path and runs it under valgrind's memcheck. Secrets are
// marked at the API boundary, as BoringSSL's constant-time tests do: the
// driver marks the caller's inputs undefined with valgrind's client
// requests before each call (the seed it gives NewPrivateKey, the expanded
// key it gives NewPrivateKeyFromExpanded, and what crypto/rand returns,
// through a reader that replaces crypto/rand.Reader), and every private
// key that Sign, SignDeterministic, SignMu, HashSign, Bytes, ExpandedBytes,
// Equal and the crypto/mldsa bridge receive is made from such marked
// bytes. go/mldsa marks only the randomness it draws itself (GenerateKey's
// ξ, hedged signing's rnd), and declares public, at each place and for each
// reason listed in go/mldsa/ct.go, only the values FIPS 204 makes public.
// Memcheck then reports every branch, conditional move and memory address
// computed from a secret: any "Conditional jump or move depends on
// uninitialised value(s)" or "Use of uninitialised value" whose stack
// reaches vg's code is a finding, printed at the Go source line of the
// innermost frame in vg's code. Verify, where nothing is secret, runs too,
// as a control.
//
// The operations (-ops): keygen (GenerateKey; NewPrivateKey runs for every
// operation), expanded (NewPrivateKeyFromExpanded and
// SignExpandedDeterministic on valid and invalid keys), sign, signdet,
// signmu (SignMu and SignMuDeterministic), hashsign (HashSign and
// HashSignDeterministic), each with a key from a seed and one from an
// expanded key (sign and signdet also with SignExpanded and
// SignExpandedDeterministic from the encoding), bytes, expandedbytes, equal, verify (the control)
// and bridge (StdSigner, StdPrivateKey, FromStdPrivateKey). The paths
// (-paths): default (AVX2 where the CPU has it), baseline, purego, and
// go1.27, the default path built with Go 1.27.3 (GOTOOLCHAIN), the only
// one whose build has the bridge. Memcheck's reports inside the standard
// library's ML-DSA, to which the bridge hands a seed, are counted apart.
//
// The driver runs on one thread, without asynchronous preemption and
// without the collector (runtimeEnv says why).
//
// Usage, from the repository root:
//
//	go run ./tools/checks/check_ct [-paths default,baseline,purego,go1.27] [-params 44,65,87] [-ops keygen,expanded,sign,...] [-n 1]
package main

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/tools/checks/internal/diag"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
	"golang.org/x/sys/cpu"
)

func main() {
	root := flag.String("root", ".", "repository root")
	paths := flag.String("paths", "default,baseline,purego,go1.27", "code paths")
	params := flag.String("params", "44,65,87", "parameter sets")
	ops := flag.String("ops", allOps, "operations")
	n := flag.Int("n", 1, "operations of each kind per parameter set and path")
	flag.Parse()
	l, summary, err := run(*root, strings.Split(*paths, ","), *params, *ops, *n)
	diag.Exit("check_ct", l, summary, err)
}

// runtimeEnv keeps the Go runtime out of memcheck's way. The runtime
// describes its heap to valgrind (Go's valgrind build tag), but its own
// structures for threads it starts later can then read as undefined, and
// everything computed on such a thread looks secret; so the program runs on
// one thread (GOMAXPROCS=1, and the driver locks its goroutine to the main
// thread), without asynchronous preemption (its signal handler saves the
// registers where memcheck does not expect writes) and without the
// collector (GOGC=off: the runs are short, and its concurrent marking
// only adds reports about the runtime's memory).
var runtimeEnv = []string{"GOGC=off", "GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1"}

// allOps are the driver's operations. bridge, the crypto/mldsa bridge,
// runs only on a path built with Go 1.27 (go1.27).
const allOps = "keygen,expanded,sign,signdet,signmu,hashsign,bytes,expandedbytes,equal,verify,bridge"

// path is one code path: its build tags, the toolchain it is built with
// (GOTOOLCHAIN; empty: the default), its environment and the
// implementation the library must report on it.
type path struct {
	name      string
	tags      string
	toolchain string
	env       []string
	impl      string
}

// bridgeToolchain builds the go1.27 path: the crypto/mldsa bridge's files
// are under //go:build go1.27, and go.mod stays at go 1.26.0.
const bridgeToolchain = "go1.27.3"

// pathOps are the operations of ops that p's build has: without Go 1.27,
// all but bridge.
func pathOps(p path, ops string) string {
	if p.toolchain != "" {
		return ops
	}
	var out []string
	for _, op := range strings.Split(ops, ",") {
		if op != "bridge" {
			out = append(out, op)
		}
	}
	return strings.Join(out, ",")
}

func codePaths() map[string]path {
	// The default path is AVX2 where the CPU has it (valgrind passes
	// AVX2 through), else the baseline assembly.
	def := "baseline x86-64 assembly"
	if cpu.X86.HasAVX2 {
		def = "AVX2"
	}
	return map[string]path{
		"default":  {"default", "valgrind", "", nil, def},
		"baseline": {"baseline", "valgrind,cpu_features_env", "", []string{"VG_CPU_FEATURES=none"}, "baseline x86-64 assembly"},
		"purego":   {"purego", "valgrind,purego", "", nil, "pure Go"},
		// The default path built by Go 1.27, whose compiler may branch
		// where Go 1.26's does not, with the bridge.
		"go1.27": {"go1.27", "valgrind", bridgeToolchain, nil, def},
	}
}

func run(root string, paths []string, params, ops string, n int) (diag.List, string, error) {
	r, err := repo.Open(root)
	if err != nil {
		return nil, "", err
	}
	l, sites, err := declassifications(r)
	if err != nil || len(l) > 0 {
		return l, "", err
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		return nil, "", fmt.Errorf("valgrind is not installed: %v", err)
	}
	tmp, err := os.MkdirTemp("", "check_ct")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(tmp)
	all := codePaths()
	seen := map[string]bool{}
	var done []string
	stdReports := 0
	for _, name := range paths {
		p, ok := all[name]
		if !ok {
			return nil, "", fmt.Errorf("unknown code path %q", name)
		}
		pops := pathOps(p, ops)
		if pops == "" {
			continue
		}
		found, std, err := runPath(r, tmp, p, params, pops, n)
		if err != nil {
			return nil, "", err
		}
		stdReports += std
		for _, f := range found {
			key := f.String()
			if !seen[key] {
				seen[key] = true
				l = append(l, f)
			}
		}
		impl := p.impl
		if p.toolchain != "" {
			impl += ", " + p.toolchain
		}
		if pops != ops {
			impl += ", without bridge"
		}
		done = append(done, fmt.Sprintf("%s (%s)", p.name, impl))
	}
	if len(done) == 0 {
		return nil, "", fmt.Errorf("no path runs any of the operations %s", ops)
	}
	for _, d := range l {
		if controlRe.MatchString(d.Msg) {
			l.Addf("tools/checks/check_ct/driver/main.go", 0, "the control has findings too (Verify and NewPublicKey handle nothing secret): the measurement itself is disturbed, so the other findings may be too")
			break
		}
	}
	std := ""
	if stdReports > 0 {
		std = fmt.Sprintf("; %d reports inside the standard library's ML-DSA, which the bridge calls, are not vg's", stdReports)
	}
	return l, fmt.Sprintf("no secret-dependent branch or address in vg's code: %s of ML-DSA-%s, %d each, on %s; %s%s",
		ops, strings.ReplaceAll(params, ",", "/"), n, strings.Join(done, ", "), sites, std), nil
}

// runPath builds the driver for p and runs it under memcheck.
func runPath(r *repo.Repo, tmp string, p path, params, ops string, n int) (diag.List, int, error) {
	bin := filepath.Join(tmp, "driver-"+p.name)
	build := exec.Command("go", "build", "-tags", p.tags, "-o", bin, "./tools/checks/check_ct/driver")
	build.Dir = r.Root
	if p.toolchain != "" {
		build.Env = append(os.Environ(), "GOTOOLCHAIN="+p.toolchain)
	}
	if out, err := build.CombinedOutput(); err != nil {
		return nil, 0, fmt.Errorf("%s: go build -tags %s (GOTOOLCHAIN=%s): %v\n%s", p.name, p.tags, p.toolchain, err, out)
	}
	xmlFile := filepath.Join(tmp, "memcheck-"+p.name+".xml")
	cmd := exec.Command("valgrind", "--tool=memcheck", "--xml=yes", "--xml-file="+xmlFile,
		"--num-callers=64", "--error-limit=no", "--undef-value-errors=yes",
		bin, "-params", params, "-ops", ops, "-n", fmt.Sprint(n))
	cmd.Dir = r.Root
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "VG_CPU_FEATURES", "GOGC", "GOMAXPROCS", "GODEBUG":
		default:
			env = append(env, kv)
		}
	}
	cmd.Env = append(append(env, runtimeEnv...), p.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, 0, fmt.Errorf("%s: the driver failed under valgrind: %v\n%s%s", p.name, err, stdout.String(), stderr.String())
	}
	if want := "implementation: " + p.impl + "\n"; !strings.HasPrefix(stdout.String(), want) {
		return nil, 0, fmt.Errorf("%s: the driver printed %q, want %q", p.name, firstLine(stdout.String()), strings.TrimSpace(want))
	}
	data, err := os.ReadFile(xmlFile)
	if err != nil {
		return nil, 0, err
	}
	return findings(r, data, p.name)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// The parts of memcheck's XML output (valgrind's docs/internals/xml-output-protocol4.txt) read here.
type report struct {
	Errors []struct {
		Kind  string `xml:"kind"`
		What  string `xml:"what"`
		Stack struct {
			Frames []frame `xml:"frame"`
		} `xml:"stack"`
	} `xml:"error"`
}

type frame struct {
	Fn   string `xml:"fn"`
	Dir  string `xml:"dir"`
	File string `xml:"file"`
	Line int    `xml:"line"`
}

// controlRe matches a finding inside the control: Verify, HashVerify and
// NewPublicKey handle no secret.
var controlRe = regexp.MustCompile(`go/mldsa\.(Verify|HashVerify|NewPublicKey)\b`)

// uninitKinds are memcheck's kinds for a use of an undefined (here: secret)
// value as a branch condition or conditional move, and as a memory address
// or system-call argument.
var uninitKinds = map[string]string{
	"UninitCondition": "Conditional jump or move depends on uninitialised value(s)",
	"UninitValue":     "Use of uninitialised value",
}

// findings turns memcheck's errors into findings at the innermost frame in
// the repository. Errors whose stack never enters the repository (the
// runtime's own, in goroutines that run no vg code) are not vg's. Errors
// inside an assembly routine whose contract declares secret control flow
// (SecretControl: a sampler keyed by a secret, whose branches follow where
// its rejections fall) are that declared leak, which vg prove checks
// against the contract; its caller must still declassify what it
// branches on. So are errors inside one whose control flow depends on
// public inputs, under a composite that makes them public (PublicOut).
// Errors inside the standard library's ML-DSA (crypto/mldsa,
// to which the bridge's StdPrivateKey hands the seed, and whose key
// generation branches where its RejBoundedPoly rejects) are not vg's code
// either: findings counts them apart.
func findings(r *repo.Repo, data []byte, pathName string) (diag.List, int, error) {
	// Memcheck writes one XML document, but a Go program's valgrind
	// annotations can add text after it; read the document only.
	if i := bytes.LastIndex(data, []byte("</valgrindoutput>")); i >= 0 {
		data = data[:i+len("</valgrindoutput>")]
	}
	var rep report
	if err := xml.Unmarshal(data, &rep); err != nil {
		return nil, 0, fmt.Errorf("%s: memcheck's XML: %v", pathName, err)
	}
	var l diag.List
	std := 0
	for _, e := range rep.Errors {
		what, ok := uninitKinds[e.Kind]
		if !ok {
			continue
		}
		if fs := e.Stack.Frames; len(fs) > 0 && stdMLDSARe.MatchString(fs[0].Fn) {
			std++
			continue
		}
		var inner *frame
		var chain []string
		for i := range e.Stack.Frames {
			f := &e.Stack.Frames[i]
			if f.Dir == "" || !inRepo(r.Root, f.Dir) {
				continue
			}
			if inner == nil {
				inner = f
			}
			chain = append(chain, shortFn(f.Fn))
		}
		if inner == nil || declaredLeak(inner.Fn) || publicOutLeak(inner.Fn, chain) {
			continue
		}
		file := r.Rel(filepath.Join(inner.Dir, inner.File))
		l.Addf(file, inner.Line, "%s: %s in %s (%s path; called from %s)",
			e.Kind, what, shortFn(inner.Fn), pathName, strings.Join(chain[1:], " ← "))
	}
	sort.SliceStable(l, func(i, j int) bool { return l[i].Msg < l[j].Msg })
	return l, std, nil
}

// stdMLDSARe matches the functions of the standard library's ML-DSA.
var stdMLDSARe = regexp.MustCompile(`^crypto/(internal/fips140/)?mldsa\.`)

// declaredLeak reports whether fn is an assembly routine whose contract
// declares secret control flow.
func declaredLeak(fn string) bool {
	sym, ok := strings.CutPrefix(shortFn(fn), "go/asm.")
	if !ok {
		return false
	}
	c := contract.Lookup(sym)
	return c != nil && c.SecretControl
}

// publicOutLeak reports whether fn is an assembly routine whose contract
// lets control flow depend on public inputs (a sampler keyed by ρ), run
// under an assembly routine whose contract makes output public
// (PublicOut: KeyGen's pk, with ρ): memcheck sees ρ computed from the
// secret ξ, and the composite hands the sampler only the bytes it outputs
// as public, which vg prove's composition proof checks.
func publicOutLeak(fn string, chain []string) bool {
	sym, ok := strings.CutPrefix(shortFn(fn), "go/asm.")
	if c := contract.Lookup(sym); !ok || c == nil || !c.PublicControl {
		return false
	}
	for _, f := range chain[1:] {
		if sym, ok := strings.CutPrefix(f, "go/asm."); ok {
			if c := contract.Lookup(sym); c != nil && len(c.PublicOut) > 0 {
				return true
			}
		}
	}
	return false
}

func inRepo(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// shortFn drops the module path from a function name.
func shortFn(fn string) string {
	fn = strings.TrimPrefix(fn, "github.com/vg-crypto/vg/")
	return strings.TrimSuffix(fn, ".abi0")
}

// ctFiles are the files of go/mldsa that may make valgrind's client
// requests; everything else goes through secret and declassify.
var ctFiles = map[string]bool{"ct.go": true, "ct_valgrind.go": true, "ct_novalgrind.go": true}

// declassifications checks, in go/mldsa's source, that FIPS 204's public
// values are declared public only through the one list of ct.go: every
// declassify call names one of its publicValue constants, every constant
// has its reason and is used, and only the ct files make client requests.
// It returns the findings and a count of the call sites.
func declassifications(r *repo.Repo) (diag.List, string, error) {
	dir := r.Abs("go/mldsa")
	fset := token.NewFileSet()
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, "", err
	}
	files := map[string]*ast.File{}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			return nil, "", err
		}
		files[name] = f
	}
	var l diag.List
	rel := func(p token.Pos) (string, int) {
		pos := fset.Position(p)
		return r.Rel(pos.Filename), pos.Line
	}
	ct := files["ct.go"]
	if ct == nil {
		return nil, "", fmt.Errorf("go/mldsa/ct.go is missing")
	}
	// The reasons: the constants of type publicValue, and publicReasons.
	reasons := map[string]bool{}
	for _, d := range ct.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		typed := false
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); ok {
				typed = id.Name == "publicValue"
			}
			for _, n := range vs.Names {
				if typed && n.Name != "publicValues" {
					reasons[n.Name] = false
				}
			}
		}
	}
	if len(reasons) == 0 {
		return nil, "", fmt.Errorf("go/mldsa/ct.go declares no publicValue constants")
	}
	described := map[string]bool{}
	ast.Inspect(ct, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Names) == 1 && vs.Names[0].Name == "publicReasons" && len(vs.Values) == 1 {
			if cl, ok := vs.Values[0].(*ast.CompositeLit); ok {
				for _, e := range cl.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							if lit, ok := kv.Value.(*ast.BasicLit); ok && len(lit.Value) > 2 {
								described[id.Name] = true
							}
						}
					}
				}
			}
		}
		return true
	})
	sites := 0
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		ast.Inspect(files[name], func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "declassify" && len(n.Args) > 0 {
					sites++
					arg, ok := n.Args[0].(*ast.Ident)
					if ok {
						_, ok = reasons[arg.Name]
					}
					if !ok {
						file, line := rel(n.Pos())
						l.Addf(file, line, "declassify without one of ct.go's reasons: %s", types.ExprString(n.Args[0]))
					} else {
						reasons[arg.Name] = true
					}
				}
			case *ast.Ident:
				if ctFiles[name] {
					break
				}
				switch n.Name {
				case "valgrindMakeMemDefined", "valgrindMakeMemUndefined", "ValgrindClientRequestAMD64":
					file, line := rel(n.Pos())
					l.Addf(file, line, "%s outside ct.go: declare public values with declassify and a reason", n.Name)
				}
			}
			return true
		})
	}
	for name, used := range reasons {
		file, line := rel(ct.Pos())
		if !described[name] {
			l.Addf(file, line, "%s has no reason in publicReasons", name)
		}
		if !used {
			l.Addf(file, line, "%s is never declassified: a stale reason", name)
		}
	}
	return l, fmt.Sprintf("%d declassify calls for %d reasons", sites, len(reasons)), nil
}
