// Package modroot finds the vg source tree: the nearest directory at or
// above the working directory whose go.mod declares the module
// github.com/vg-crypto/vg. Other modules in the tree (Emit, bench) have
// go.mod files of their own, so the module line is what identifies it.
package modroot

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Module is the library's module path.
const Module = "github.com/vg-crypto/vg"

// Find returns the absolute path of the vg source tree.
func Find() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return From(dir)
}

// From is Find starting at dir instead of the working directory.
func From(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if modulePath(filepath.Join(dir, "go.mod")) == Module {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod of " + Module + " at or above " + dir + ": run this inside the vg source tree")
		}
		dir = parent
	}
}

// modulePath returns the module line of a go.mod, or "" if there is none.
func modulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		if rest, ok := strings.CutPrefix(line, "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
