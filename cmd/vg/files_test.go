package main

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// snapshot records every name in dir with its content and mode.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		var content []byte
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			content = []byte("-> " + target)
		} else if fi.Mode().IsRegular() {
			content, _ = os.ReadFile(p)
		}
		m[e.Name()] = fi.Mode().String() + " " + string(content)
	}
	return m
}

func sameSnapshot(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	var diffs []string
	for name, b := range before {
		if a, ok := after[name]; !ok {
			diffs = append(diffs, name+" removed")
		} else if a != b {
			diffs = append(diffs, name+" changed")
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			diffs = append(diffs, name+" created")
		}
	}
	sort.Strings(diffs)
	if len(diffs) != 0 {
		t.Errorf("%s changed the directory: %s", what, strings.Join(diffs, ", "))
	}
}

// TestSignOutProtection checks that sign -out never replaces the key or
// the message, whatever name reaches them and even with -force, nor an
// existing file without -force; a refused command changes nothing.
func TestSignOutProtection(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	key, pub, msg, old := p("key.pem"), p("pub.pem"), p("msg"), p("old.sig")
	mustRun(t, "keygen", "-params", "44", "-out", key, "-pub", pub)
	writeFile(t, msg, []byte("message"))
	writeFile(t, old, []byte("an older signature"))
	if err := os.Link(key, p("key.hardlink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("msg", p("msg.symlink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(p("sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		out, want string
		force     bool
	}{
		{key, "is the -key file", false},
		{key, "is the -key file", true},
		{msg, "is the -in file", false},
		{msg, "is the -in file", true},
		{p("key.hardlink"), "is the -key file", true},
		{p("msg.symlink"), "is the -in file", true},
		{p("sub/../msg"), "is the -in file", true},
		{old, "already exists (use -force", false},
		{p("sub"), "not a regular file", true},
	} {
		before := snapshot(t, dir)
		args := []string{"sign", "-key", key, "-in", msg, "-out", c.out}
		if c.force {
			args = append(args, "-force")
		}
		r := vg(t, "", args...)
		if r.code != 1 || !strings.Contains(r.err, c.want) {
			t.Errorf("vg %s: %s; want exit 1 and %q", strings.Join(args, " "), r, c.want)
		}
		sameSnapshot(t, "vg "+strings.Join(args, " "), before, snapshot(t, dir))
	}

	// Standard input that is the -out file.
	f, err := os.Open(msg)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before := snapshot(t, dir)
	var out, errb bytes.Buffer
	code := run([]string{"sign", "-key", key, "-in", "-", "-out", msg, "-force"}, &stdio{in: f, out: &out, err: &errb})
	if code != 1 || !strings.Contains(errb.String(), "is the -in file") {
		t.Errorf("sign -in - (the -out file) -force: exit %d, %q", code, errb.String())
	}
	sameSnapshot(t, "sign -in - -out (standard input's file)", before, snapshot(t, dir))

	// -force replaces an ordinary file, as mode 0644, through a rename
	// that leaves no temporary file behind.
	if err := os.Chmod(old, 0o600); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "sign", "-key", key, "-in", msg, "-out", old, "-force")
	mustRun(t, "verify", "-pub", pub, "-in", msg, "-sig", old)
	if fi, _ := os.Stat(old); fi.Mode().Perm() != 0o644 {
		t.Errorf("replaced signature has mode %v, want 0644", fi.Mode().Perm())
	}
	after := snapshot(t, dir)
	if len(after) != len(before) {
		t.Errorf("directory holds %d names after sign -force, want %d", len(after), len(before))
	}
	// A new file needs no -force.
	mustRun(t, "sign", "-key", key, "-in", msg, "-out", p("new.sig"))
	mustRun(t, "verify", "-pub", pub, "-in", msg, "-sig", p("new.sig"))
}

// TestKeygenBothOrNeither checks that a keygen that cannot write the public
// key leaves no private key behind, nor replaces an old one.
func TestKeygenBothOrNeither(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, args := range [][]string{
		{"keygen", "-params", "65", "-out", p("k.pem"), "-pub", p("nodir/pub.pem")},
		{"keygen", "-params", "65", "-out", p("nodir/k.pem"), "-pub", p("pub.pem")},
	} {
		before := snapshot(t, dir)
		r := vg(t, "", args...)
		if r.code != 1 || !strings.Contains(r.err, "does not exist") {
			t.Errorf("vg %s: %s", strings.Join(args, " "), r)
		}
		sameSnapshot(t, "vg "+strings.Join(args, " "), before, snapshot(t, dir))
	}
	mustRun(t, "keygen", "-params", "65", "-out", p("k.pem"), "-pub", p("pub.pem"))
	before := snapshot(t, dir)
	r := vg(t, "", "keygen", "-params", "65", "-out", p("k.pem"), "-pub", p("nodir/pub.pem"), "-force")
	if r.code != 1 {
		t.Errorf("keygen -force with -pub in a missing directory: %s", r)
	}
	sameSnapshot(t, "keygen -force with -pub in a missing directory", before, snapshot(t, dir))
	// -out and -pub naming one file through a link.
	if err := os.Link(p("k.pem"), p("k.link")); err != nil {
		t.Fatal(err)
	}
	before = snapshot(t, dir)
	r = vg(t, "", "keygen", "-params", "65", "-out", p("k.pem"), "-pub", p("k.link"), "-force")
	if r.code != 1 || !strings.Contains(r.err, "is the -out file") {
		t.Errorf("keygen -out and -pub one file: %s", r)
	}
	sameSnapshot(t, "keygen -out and -pub one file", before, snapshot(t, dir))
}

// TestCommitFiles fails the second of two moves into place and checks that
// the first is undone: a new file removed, a replaced one restored.
func TestCommitFiles(t *testing.T) {
	for _, force := range []bool{false, true} {
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		if force {
			writeFile(t, a, []byte("old a"))
		}
		fa, err := stageFile(a, []byte("new a"), 0o600, force, "file a")
		if err != nil {
			t.Fatal(err)
		}
		fb, err := stageFile(b, []byte("new b"), 0o644, force, "file b")
		if err != nil {
			t.Fatal(err)
		}
		// b appears after the checks: as a file (refused without -force)
		// or as a non-empty directory (which no rename replaces).
		if force {
			if err := os.MkdirAll(filepath.Join(b, "x"), 0o755); err != nil {
				t.Fatal(err)
			}
		} else {
			writeFile(t, b, []byte("someone else's b"))
		}
		before := snapshot(t, dir)
		// The staged temporary files are in before; they must go too.
		for name := range before {
			if strings.HasPrefix(name, ".") {
				delete(before, name)
			}
		}
		if err := commitFiles([]*pendingFile{fa, fb}); err == nil {
			t.Fatalf("force=%v: commit succeeded", force)
		}
		sameSnapshot(t, "a failed commit", before, snapshot(t, dir))
	}
}

// TestStreamingMemory signs a 64 MiB message from standard input and checks
// that sign allocates a small, fixed amount rather than the message.
func TestStreamingMemory(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "k")
	mustRun(t, "keygen", "-params", "65", "-out", key)
	const size = 64 << 20
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	var out, errb bytes.Buffer
	code := run([]string{"sign", "-key", key, "-in", "-"}, &stdio{in: &zeroReader{size}, out: &out, err: &errb})
	runtime.ReadMemStats(&ms1)
	if code != 0 {
		t.Fatalf("sign: exit %d, %s", code, errb.String())
	}
	if alloc := ms1.TotalAlloc - ms0.TotalAlloc; alloc > 16<<20 {
		t.Errorf("signing a %d MiB message allocated %d MiB", size>>20, alloc>>20)
	}
}

// zeroReader gives n zero bytes.
type zeroReader struct{ n int }

func (z *zeroReader) Read(p []byte) (int, error) {
	if z.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), z.n)
	clear(p[:k])
	z.n -= k
	return k, nil
}
