package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPub derives the public key from private keys of every parameter set,
// form and file format, and requires the file keygen -pub wrote.
func TestPub(t *testing.T) {
	dir := t.TempDir()
	for _, ps := range paramSets {
		for _, format := range []string{"pem", "der", "raw"} {
			for _, form := range allForms {
				if format == "raw" && form == formBoth {
					continue
				}
				name := ps.name + "-" + format + "-" + formName(form)
				key, pub := filepath.Join(dir, name+".key"), filepath.Join(dir, name+".pub")
				mustRun(t, "keygen", "-params", ps.name, "-format", format, "-sk-form", formName(form), "-out", key, "-pub", pub)
				want, _ := os.ReadFile(pub)
				args := []string{"pub", "-key", key, "-format", format}
				if format == "raw" {
					args = append(args, "-params", ps.name)
				}
				if r := mustRun(t, args...); r.out != string(want) {
					t.Errorf("%s: vg pub to standard output differs from keygen -pub", name)
				}
				out := filepath.Join(dir, name+".derived")
				mustRun(t, append(args, "-out", out)...)
				if got, _ := os.ReadFile(out); !bytes.Equal(got, want) {
					t.Errorf("%s: vg pub -out differs from keygen -pub", name)
				}
				// The derived public key verifies what the key signs.
				msg := filepath.Join(dir, "msg")
				writeFile(t, msg, []byte(name))
				sig := filepath.Join(dir, name+".sig")
				signArgs := []string{"sign", "-key", key, "-in", msg, "-out", sig}
				verifyArgs := []string{"verify", "-pub", out, "-in", msg, "-sig", sig}
				if format == "raw" {
					signArgs = append(signArgs, "-params", ps.name)
					verifyArgs = append(verifyArgs, "-params", ps.name)
				}
				mustRun(t, signArgs...)
				mustRun(t, verifyArgs...)
			}
		}
	}
}

// TestPubRefuses checks pub's errors: no key, a public key or a raw key
// without -params given as the key, and outputs it must not write.
func TestPubRefuses(t *testing.T) {
	dir := t.TempDir()
	key, pub := filepath.Join(dir, "k"), filepath.Join(dir, "p")
	mustRun(t, "keygen", "-params", "65", "-out", key, "-pub", pub)
	raw := filepath.Join(dir, "raw")
	mustRun(t, "keygen", "-params", "65", "-format", "raw", "-out", raw)
	keyBefore, _ := os.ReadFile(key)
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"pub"}, 2, "-key is required"},
		{[]string{"pub", "-key", key, "-format", "text"}, 2, "unknown -format"},
		{[]string{"pub", "-key", key, "-params", "66"}, 2, "unknown parameter set"},
		{[]string{"pub", "-key", key, "extra"}, 2, "unexpected argument"},
		{[]string{"pub", "-key", pub}, 1, `PEM block is "PUBLIC KEY"`},
		{[]string{"pub", "-key", raw}, 1, "-params"},
		{[]string{"pub", "-key", key, "-params", "44"}, 1, "-params says ML-DSA-44"},
		{[]string{"pub", "-key", filepath.Join(dir, "missing")}, 1, "missing"},
		{[]string{"pub", "-key", key, "-out", pub}, 1, "exists"},
		{[]string{"pub", "-key", key, "-out", key, "-force"}, 1, "-key"},
	} {
		r := vg(t, "", c.args...)
		if r.code != c.code || !strings.Contains(r.err, c.says) {
			t.Errorf("vg %s: %s; want exit %d saying %q", strings.Join(c.args, " "), r, c.code, c.says)
		}
	}
	if after, _ := os.ReadFile(key); !bytes.Equal(after, keyBefore) {
		t.Error("the key file changed")
	}
	r := vg(t, "", "pub", "-h")
	if r.code != 0 || !strings.Contains(r.err, "usage: vg pub -key") {
		t.Errorf("vg pub -h: %s", r)
	}
}
