package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
)

// moduleRoot finds the vg module from the working directory upwards: vg
// prove reads its go/asm, vg bench -paths runs its benchmarks.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		f, err := os.Open(filepath.Join(dir, "go.mod"))
		if err == nil {
			head := make([]byte, 64)
			n, _ := io.ReadFull(f, head)
			f.Close()
			if bytes.HasPrefix(head[:n], []byte("module github.com/vg-crypto/vg\n")) {
				return dir, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod of github.com/vg-crypto/vg above the working directory: run vg prove and vg bench -paths inside the vg source tree")
		}
		dir = parent
	}
}
