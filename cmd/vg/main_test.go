package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/go/mldsa"
)

type result struct {
	code     int
	out, err string
}

// vg runs one command line in-process with stdin as standard input.
func vg(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &stdio{in: strings.NewReader(stdin), out: &out, err: &errb})
	return result{code, out.String(), errb.String()}
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\nstdout: %q\nstderr: %q", r.code, r.out, r.err)
}

func mustRun(t *testing.T, args ...string) result {
	t.Helper()
	r := vg(t, "", args...)
	if r.code != 0 {
		t.Fatalf("vg %s: %s", strings.Join(args, " "), r)
	}
	return r
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestEndToEnd(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	msg, tampered := p("msg"), p("tampered")
	writeFile(t, msg, []byte("attack at dawn\n"))
	writeFile(t, tampered, []byte("attack at dusk\n"))

	for _, ps := range paramSets {
		key, pub, sig := p(ps.name+".pem"), p(ps.name+".pub.pem"), p(ps.name+".sig")
		mustRun(t, "keygen", "-params", ps.name, "-out", key, "-pub", pub)
		fi, err := os.Stat(key)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: private key mode %v, want 0600", ps.name, fi.Mode().Perm())
		}

		for _, det := range []bool{false, true} {
			args := []string{"sign", "-key", key, "-in", msg, "-out", sig, "-force", "-context", "e2e"}
			if det {
				args = append(args, "-deterministic")
			}
			mustRun(t, args...)
			data, err := os.ReadFile(sig)
			if err != nil {
				t.Fatal(err)
			}
			if len(data) != ps.params.SignatureSize() {
				t.Errorf("%s: signature is %d bytes, want %d", ps.name, len(data), ps.params.SignatureSize())
			}
			r := mustRun(t, "verify", "-pub", pub, "-in", msg, "-sig", sig, "-context", "e2e")
			if r.out != "OK\n" {
				t.Errorf("%s: verify printed %q, want OK", ps.name, r.out)
			}
			for name, args := range map[string][]string{
				"tampered message": {"-in", tampered, "-context", "e2e"},
				"other context":    {"-in", msg, "-context", "e2f"},
				"no context":       {"-in", msg},
			} {
				r := vg(t, "", append([]string{"verify", "-pub", pub, "-sig", sig}, args...)...)
				if r.code != 1 || !strings.Contains(r.err, "signature invalid") || r.out != "" {
					t.Errorf("%s, %s: %s", ps.name, name, r)
				}
			}
		}

		// A tampered signature and a truncated one are invalid, not errors of another kind.
		good, _ := os.ReadFile(sig)
		writeFile(t, p("bad.sig"), flip(good, 17))
		writeFile(t, p("short.sig"), good[:len(good)-1])
		for _, bad := range []string{"bad.sig", "short.sig"} {
			r := vg(t, "", "verify", "-pub", pub, "-in", msg, "-sig", p(bad), "-context", "e2e")
			if r.code != 1 || !strings.Contains(r.err, "signature invalid") {
				t.Errorf("%s, %s: %s", ps.name, bad, r)
			}
		}

		// Deterministic signatures repeat; hedged ones do not.
		a := mustRun(t, "sign", "-key", key, "-in", msg, "-deterministic", "-format", "hex").out
		b := mustRun(t, "sign", "-key", key, "-in", msg, "-deterministic", "-format", "hex").out
		c := mustRun(t, "sign", "-key", key, "-in", msg, "-format", "hex").out
		if a != b {
			t.Errorf("%s: deterministic signatures differ", ps.name)
		}
		if a == c {
			t.Errorf("%s: hedged signature equals the deterministic one", ps.name)
		}

		// Signature encodings, read back by verify's auto detection and by name.
		for _, format := range []string{"raw", "base64", "hex"} {
			s := p(ps.name + "." + format)
			mustRun(t, "sign", "-key", key, "-in", msg, "-out", s, "-format", format)
			mustRun(t, "verify", "-pub", pub, "-in", msg, "-sig", s)
			mustRun(t, "verify", "-pub", pub, "-in", msg, "-sig", s, "-format", format)
		}

		// Message and signature from standard input.
		r := vg(t, "attack at dawn\n", "verify", "-pub", pub, "-in", "-", "-sig", p(ps.name+".raw"))
		if r.code != 0 || r.out != "OK\n" {
			t.Errorf("%s: message on stdin: %s", ps.name, r)
		}
	}
}

// TestKeyFormats signs with every private key form and file format keygen
// writes and verifies with the matching public key file.
func TestKeyFormats(t *testing.T) {
	dir := t.TempDir()
	msg := filepath.Join(dir, "msg")
	writeFile(t, msg, []byte("formats"))
	for _, ps := range paramSets {
		for _, format := range []string{"pem", "der", "raw"} {
			for _, form := range []string{"seed", "expanded", "both"} {
				if format == "raw" && form == "both" {
					continue
				}
				base := filepath.Join(dir, ps.name+"-"+format+"-"+form)
				mustRun(t, "keygen", "-params", ps.name, "-format", format, "-sk-form", form, "-out", base+".key", "-pub", base+".pub")
				var params []string
				if format == "raw" {
					params = []string{"-params", ps.name}
				}
				mustRun(t, append([]string{"sign", "-key", base + ".key", "-in", msg, "-out", base + ".sig"}, params...)...)
				mustRun(t, append([]string{"verify", "-pub", base + ".pub", "-in", msg, "-sig", base + ".sig"}, params...)...)
				if format == "raw" {
					r := vg(t, "", "sign", "-key", base+".key", "-in", msg)
					if r.code != 1 || !strings.Contains(r.err, "-params") {
						t.Errorf("raw key without -params: %s", r)
					}
				}
			}
		}
	}
}

func TestKeygenFiles(t *testing.T) {
	dir := t.TempDir()
	key, pub := filepath.Join(dir, "k.pem"), filepath.Join(dir, "p.pem")
	mustRun(t, "keygen", "-params", "44", "-out", key, "-pub", pub)
	first, _ := os.ReadFile(key)

	r := vg(t, "", "keygen", "-params", "44", "-out", key)
	if r.code != 1 || !strings.Contains(r.err, "already exists") {
		t.Errorf("overwrite without -force: %s", r)
	}
	if now, _ := os.ReadFile(key); !bytes.Equal(now, first) {
		t.Error("refused keygen changed the key file")
	}

	// An existing public key file stops keygen before it writes the private key.
	key2 := filepath.Join(dir, "k2.pem")
	r = vg(t, "", "keygen", "-params", "44", "-out", key2, "-pub", pub)
	if r.code != 1 || !strings.Contains(r.err, "already exists") {
		t.Errorf("existing -pub without -force: %s", r)
	}
	if _, err := os.Stat(key2); err == nil {
		t.Error("keygen refused the public key file but wrote the private key")
	}

	// -force replaces the key, and a loosened mode does not survive.
	if err := os.Chmod(key, 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "keygen", "-params", "44", "-out", key, "-pub", pub, "-force")
	if now, _ := os.ReadFile(key); bytes.Equal(now, first) {
		t.Error("-force did not replace the key")
	}
	if fi, _ := os.Stat(key); fi.Mode().Perm() != 0o600 {
		t.Errorf("replaced key has mode %v, want 0600", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("directory holds %d files after keygen, want 2", len(entries))
	}

	// Key to standard output.
	r = mustRun(t, "keygen", "-params", "87", "-out", "-")
	if _, err := parsePrivateKey([]byte(r.out), nil); err != nil {
		t.Errorf("key on stdout: %v", err)
	}
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	key, pub, msg := filepath.Join(dir, "k"), filepath.Join(dir, "p"), filepath.Join(dir, "m")
	mustRun(t, "keygen", "-params", "65", "-out", key, "-pub", pub)
	writeFile(t, msg, []byte("m"))
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"keygen"},
		{"keygen", "-params", "65"},
		{"keygen", "-params", "ML-DSA-99", "-out", filepath.Join(dir, "x")},
		{"keygen", "-params", "65", "-out", filepath.Join(dir, "x"), "-format", "jwk"},
		{"keygen", "-params", "65", "-out", filepath.Join(dir, "x"), "-format", "raw", "-sk-form", "both"},
		{"keygen", "-params", "65", "-out", filepath.Join(dir, "x"), "-sk-form", "half"},
		{"keygen", "-params", "65", "-out", filepath.Join(dir, "x"), "-pub", filepath.Join(dir, "x")},
		{"keygen", "-params", "65", "-out", filepath.Join(dir, "x"), "extra"},
		{"sign", "-in", msg},
		{"sign", "-key", key},
		{"sign", "-key", key, "-in", msg, "-nosuchflag"},
		{"sign", "-key", key, "-in", msg, "-context", strings.Repeat("c", 256)},
		{"sign", "-key", key, "-in", msg, "-context", "a", "-context-hex", "61"},
		{"sign", "-key", key, "-in", msg, "-context-hex", "zz"},
		{"sign", "-key", key, "-in", msg, "-format", "pem"},
		{"sign", "-key", key, "-in", msg, "-prehash", "MD5"},
		{"sign", "-key", "-", "-in", "-"},
		{"verify", "-pub", pub, "-in", msg},
		{"verify", "-pub", pub, "-sig", msg},
		{"verify", "-pub", pub, "-in", "-", "-sig", "-"},
		{"verify", "-pub", pub, "-in", msg, "-sig", msg, "-format", "der"},
		{"bench", "-time", "0s"},
		{"bench", "-time", "1m"},
		{"bench", "extra"},
	} {
		r := vg(t, "", args...)
		if r.code != 2 || r.err == "" || r.out != "" {
			t.Errorf("vg %s: %s; want exit 2 with a message on stderr", strings.Join(args, " "), r)
		}
		if strings.Contains(r.err, "panic") || strings.Contains(r.err, "goroutine") {
			t.Errorf("vg %s: %s", strings.Join(args, " "), r)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Error("a rejected keygen wrote a file")
	}
}

func TestRuntimeErrors(t *testing.T) {
	dir := t.TempDir()
	key, pub, msg := filepath.Join(dir, "k"), filepath.Join(dir, "p"), filepath.Join(dir, "m")
	mustRun(t, "keygen", "-params", "44", "-out", key, "-pub", pub)
	writeFile(t, msg, []byte("m"))
	missing := filepath.Join(dir, "missing")
	for _, args := range [][]string{
		{"sign", "-key", missing, "-in", msg},
		{"sign", "-key", key, "-in", missing},
		{"sign", "-key", pub, "-in", msg},
		{"sign", "-key", msg, "-in", msg},
		{"sign", "-key", key, "-in", msg, "-params", "87"},
		{"sign", "-key", key, "-in", msg, "-out", filepath.Join(missing, "sig")},
		{"verify", "-pub", key, "-in", msg, "-sig", msg},
		{"verify", "-pub", missing, "-in", msg, "-sig", msg},
		{"verify", "-pub", pub, "-in", msg, "-sig", missing},
		{"verify", "-pub", pub, "-in", msg, "-sig", msg, "-params", "65"},
		{"verify", "-pub", pub, "-in", msg, "-sig", msg, "-format", "hex"},
		{"keygen", "-params", "44", "-out", filepath.Join(missing, "k")},
	} {
		r := vg(t, "", args...)
		if r.code != 1 || !strings.HasPrefix(r.err, "vg "+args[0]+": ") || r.out != "" {
			t.Errorf("vg %s: %s; want exit 1 with a message on stderr", strings.Join(args, " "), r)
		}
	}
}

func TestHelp(t *testing.T) {
	r := vg(t, "", "-h")
	if r.code != 0 || !strings.Contains(r.out, "keygen") || !strings.Contains(r.out, "prove") {
		t.Errorf("vg -h: %s", r)
	}
	for _, c := range []string{"keygen", "sign", "verify", "pub", "bench", "prove"} {
		for _, args := range [][]string{{c, "-h"}, {"help", c}} {
			r := vg(t, "", args...)
			if r.code != 0 || !strings.Contains(r.err, "usage: vg "+c) || !strings.Contains(r.err, "\nflags:\n  -") {
				t.Errorf("vg %s: %s", strings.Join(args, " "), r)
			}
		}
	}
}

func TestBench(t *testing.T) {
	r := mustRun(t, "bench", "-time", "2ms")
	for _, want := range append([]string{"implementation: ", "KeyGen", "Verify"}, paramSetNames()...) {
		if !strings.Contains(r.out, want) {
			t.Errorf("bench output lacks %q:\n%s", want, r.out)
		}
	}
	known := false
	for _, impl := range []string{"AVX-512", "AVX2", "baseline x86-64 assembly", "pure Go"} {
		known = known || strings.HasPrefix(r.out, "implementation: "+impl+" (")
	}
	if !known {
		t.Errorf("bench names an unknown implementation:\n%s", r.out)
	}
	r = mustRun(t, "bench", "-time", "1ms", "-markdown")
	if n := strings.Count(r.out, "\n| ML-DSA-"); n != 3 {
		t.Errorf("markdown table has %d parameter set rows, want 3:\n%s", n, r.out)
	}
}

func paramSetNames() []string {
	var names []string
	for _, ps := range paramSets {
		names = append(names, ps.name)
	}
	return names
}

func TestPreHash(t *testing.T) {
	dir := t.TempDir()
	key, pub, msg, sig := filepath.Join(dir, "k"), filepath.Join(dir, "p"), filepath.Join(dir, "m"), filepath.Join(dir, "s")
	mustRun(t, "keygen", "-params", "44", "-out", key, "-pub", pub)
	writeFile(t, msg, []byte("pre-hashed"))
	for _, info := range preHashes {
		ph := info.ph
		if ph.CheckStrength(mldsa.MLDSA44()) != nil {
			// SHA2-224, SHA2-512/224, SHA3-224: refused, nothing written.
			r := vg(t, "", "sign", "-key", key, "-in", msg, "-out", sig+"-weak", "-prehash", ph.String())
			if _, err := os.Stat(sig + "-weak"); r.code != 1 || !strings.Contains(r.err, "too weak") || err == nil {
				t.Errorf("sign -prehash %s with ML-DSA-44: %s (file written: %v)", ph, r, err == nil)
			}
			continue
		}
		for _, det := range []string{"-deterministic=false", "-deterministic=true"} {
			mustRun(t, "sign", "-key", key, "-in", msg, "-out", sig, "-force", "-prehash", ph.String(), "-context", "ph", det)
			mustRun(t, "verify", "-pub", pub, "-in", msg, "-sig", sig, "-prehash", strings.ToLower(ph.String()), "-context", "ph")
			other := preHashes[0].ph
			if ph == other {
				other = preHashes[1].ph
			}
			for name, args := range map[string][]string{
				"pure ML-DSA":    {"-context", "ph"},
				"other pre-hash": {"-context", "ph", "-prehash", other.String()},
				"other context":  {"-context", "pH", "-prehash", ph.String()},
			} {
				r := vg(t, "", append([]string{"verify", "-pub", pub, "-in", msg, "-sig", sig}, args...)...)
				if r.code != 1 || !strings.Contains(r.err, "signature invalid") {
					t.Errorf("%s signature checked as %s: %s", ph, name, r)
				}
			}
		}
	}
}
