package repo_test

import (
	"strings"
	"testing"

	"github.com/vg-crypto/vg/tools/checks/internal/repo"
	"github.com/vg-crypto/vg/tools/checks/internal/scratch"
)

func TestBuildSetOf(t *testing.T) {
	root := scratch.Tree(t, map[string]string{
		"a/x_amd64.go":    "//go:build !purego\n\npackage a\n",
		"a/y.go":          "//go:build amd64 && !purego && !cpu_features_env\n\npackage a\n",
		"a/z_test.go":     "package a\n",
		"a/w_arm64.s":     "#include \"textflag.h\"\n",
		"a/_ignored.go":   "package a\n",
		"b/testdata/t.go": "package t\n",
		"c/go.mod":        "module c\n",
		"c/c.go":          "package c\n",
	})
	r, err := repo.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := r.BuildSetOf("a/x_amd64.go")
	y, _ := r.BuildSetOf("a/y.go")
	z, _ := r.BuildSetOf("a/z_test.go")
	w, _ := r.BuildSetOf("a/w_arm64.s")
	// Each tag set also with valgrind (check_ct's builds).
	if len(x) != 4*len(repo.OSes) || !x.OnlyAMD64NoPurego() {
		t.Errorf("x_amd64.go: %d configurations, %v", len(x), x.Arches())
	}
	if len(y) != 2*len(repo.OSes) || !y.OnlyAMD64NoPurego() || y.HasTags("cpu_features_env") {
		t.Errorf("y.go: %d configurations", len(y))
	}
	if len(z.Arches()) != len(repo.Arches) || !z.HasTags("purego") {
		t.Errorf("z_test.go: %v", z.Arches())
	}
	if a := w.Arches(); len(a) != 1 || a[0] != "arm64" {
		t.Errorf("w_arm64.s: %v", a)
	}
	onlyX, onlyY := x.Diff(y, 3)
	if strings.Join(onlyX, ",") != "amd64 -tags cpu_features_env,amd64 -tags valgrind,cpu_features_env" || len(onlyY) != 0 {
		t.Errorf("Diff: %v, %v", onlyX, onlyY)
	}
	dirs, _ := r.Dirs(".")
	if strings.Join(dirs, ",") != "a" {
		t.Errorf("Dirs: %v (testdata, nested modules and files starting with _ are skipped)", dirs)
	}
	files, _ := r.GoFiles(".")
	if strings.Join(files, ",") != "a/x_amd64.go,a/y.go,a/z_test.go" {
		t.Errorf("GoFiles: %v", files)
	}
}
