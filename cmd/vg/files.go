package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Keys and signatures are a few KiB; the limit keeps a wrong path such as
// /dev/zero from filling memory.
const maxSmallFile = 1 << 20

// readInput reads the file at path, or standard input for "-". limit <= 0
// means no limit (messages).
func readInput(s *stdio, path, what string, limit int64) ([]byte, error) {
	var r io.Reader
	if path == "-" {
		r = s.in
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", what, err)
		}
		defer f.Close()
		r = f
	}
	if limit > 0 {
		r = io.LimitReader(r, limit+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	if limit > 0 && int64(len(data)) > limit {
		return nil, fmt.Errorf("%s %s is larger than %d bytes", what, path, limit)
	}
	return data, nil
}

// writeOutput writes data to path, or standard output for "-". Without
// force an existing file is an error. With force the file is replaced by
// renaming a new file over it, so that a replaced private key gets mode
// perm whatever the old file's mode was.
func writeOutput(s *stdio, path string, data []byte, perm fs.FileMode, force bool, what string) error {
	if path == "-" {
		_, err := s.out.Write(data)
		return err
	}
	if !force {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s %s already exists (use -force to replace it)", what, path)
		}
		if err != nil {
			return fmt.Errorf("writing %s: %w", what, err)
		}
		if err := writeClose(f, data); err != nil {
			os.Remove(path)
			return fmt.Errorf("writing %s: %w", what, err)
		}
		return nil
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s %s exists and is not a regular file", what, path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".vg-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", what, err)
	}
	tmp := f.Name()
	err = f.Chmod(perm)
	if err == nil {
		err = writeClose(f, data)
	} else {
		f.Close()
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", what, err)
	}
	return nil
}

func writeClose(f *os.File, data []byte) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
