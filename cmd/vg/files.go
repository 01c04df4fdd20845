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

// readInput reads the whole file at path, or standard input for "-", up to
// limit bytes (keys and signatures; messages are streamed by openInput).
func readInput(s *stdio, path, what string, limit int64) ([]byte, error) {
	r, closeFn, err := openInput(s, path, what)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s %s: %w", what, path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s %s is larger than %d bytes", what, path, limit)
	}
	return data, nil
}

// openInput opens the file at path, or standard input for "-", for reading.
func openInput(s *stdio, path, what string) (io.Reader, func(), error) {
	if path == "-" {
		return s.in, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", what, err)
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("reading %s: %s is a directory", what, path)
	}
	return f, func() { f.Close() }, nil
}

// inputInfo returns what os.Stat says of an input: the file at path, or
// standard input when it is a file. ok is false when there is nothing to
// compare (standard input from a pipe or a test buffer, a missing file).
func inputInfo(s *stdio, path string) (fi fs.FileInfo, ok bool) {
	if path == "-" {
		f, isFile := s.in.(*os.File)
		if !isFile {
			return nil, false
		}
		fi, err := f.Stat()
		return fi, err == nil
	}
	fi, err := os.Stat(path)
	return fi, err == nil
}

// checkOutput refuses an output file that is one of the inputs (whatever
// the path says: links and other spellings count, since os.SameFile
// compares the files), and, without force, one that exists. It runs before
// any work, so that a refused command changes nothing.
func checkOutput(s *stdio, out, what string, force bool, inputs map[string]string) error {
	if out == "-" {
		return nil
	}
	outInfo, err := os.Stat(out)
	if err != nil {
		if _, lerr := os.Lstat(out); lerr == nil {
			// A dangling symbolic link: renaming over it is safe, but
			// without -force it is an existing name all the same.
			if !force {
				return fmt.Errorf("%s %s already exists (use -force to replace it)", what, out)
			}
		}
		return nil
	}
	for flagName, in := range inputs {
		if in == "" {
			continue
		}
		if inInfo, ok := inputInfo(s, in); ok && os.SameFile(outInfo, inInfo) {
			return fmt.Errorf("%s %s is the %s file; refusing to overwrite it, even with -force", what, out, flagName)
		}
	}
	if !outInfo.Mode().IsRegular() {
		return fmt.Errorf("%s %s exists and is not a regular file", what, out)
	}
	if !force {
		return fmt.Errorf("%s %s already exists (use -force to replace it)", what, out)
	}
	return nil
}

// pendingFile is an output written to a temporary file in its directory,
// to be renamed into place by commitFiles.
type pendingFile struct {
	path, tmp, what string
	force           bool
}

// stageFile writes data to a new temporary file beside path with mode perm.
func stageFile(path string, data []byte, perm fs.FileMode, force bool, what string) (*pendingFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".vg-*")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("writing %s %s: directory %s does not exist", what, path, filepath.Dir(path))
		}
		return nil, fmt.Errorf("writing %s %s: %w", what, path, err)
	}
	tmp := f.Name()
	// CreateTemp makes the file 0600; Chmod sets perm exactly, whatever the umask.
	err = f.Chmod(perm)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("writing %s %s: %w", what, path, err)
	}
	return &pendingFile{path: path, tmp: tmp, what: what, force: force}, nil
}

// discard removes the temporary files of outputs not committed.
func discard(files []*pendingFile) {
	for _, f := range files {
		os.Remove(f.tmp)
	}
}

// commitFiles moves every staged file into place, or none: if one fails,
// those already moved are undone (a new file removed, a replaced one put
// back). Without force a file is linked into place, which fails if the
// name exists, so a file created since checkOutput is not replaced either.
func commitFiles(files []*pendingFile) error {
	type done struct {
		path, backup string // backup: the replaced file, or "" if there was none
	}
	var committed []done
	undo := func() {
		for i := len(committed) - 1; i >= 0; i-- {
			c := committed[i]
			if c.backup != "" {
				os.Rename(c.backup, c.path)
			} else {
				os.Remove(c.path)
			}
		}
	}
	for i, f := range files {
		var err error
		backup := ""
		if f.force {
			if _, statErr := os.Lstat(f.path); statErr == nil {
				// Keep the old file under a temporary name until all
				// files are in place, so that a failure can restore it.
				backup = f.tmp + ".old"
				if err = os.Link(f.path, backup); err != nil {
					backup = ""
					err = nil
				}
			}
			err = os.Rename(f.tmp, f.path)
		} else {
			err = os.Link(f.tmp, f.path)
			switch {
			case err == nil:
				os.Remove(f.tmp)
			case !errors.Is(err, fs.ErrExist):
				// A file system without hard links: look, then rename
				// (which leaves a short race the link would not).
				if _, lerr := os.Lstat(f.path); lerr == nil {
					err = fs.ErrExist
				} else {
					err = os.Rename(f.tmp, f.path)
				}
			}
		}
		if err != nil {
			if errors.Is(err, fs.ErrExist) {
				err = fmt.Errorf("%s %s already exists (use -force to replace it)", f.what, f.path)
			} else {
				err = fmt.Errorf("writing %s %s: %w", f.what, f.path, err)
			}
			if backup != "" {
				os.Remove(backup)
			}
			undo()
			discard(files[i:])
			for _, c := range committed {
				if c.backup != "" {
					os.Remove(c.backup)
				}
			}
			return err
		}
		committed = append(committed, done{f.path, backup})
	}
	for _, c := range committed {
		if c.backup != "" {
			os.Remove(c.backup)
		}
	}
	return nil
}

// writeOutput writes data to path through a temporary file renamed into
// place, or to standard output for "-".
func writeOutput(s *stdio, path string, data []byte, perm fs.FileMode, force bool, what string) error {
	if path == "-" {
		_, err := s.out.Write(data)
		return err
	}
	f, err := stageFile(path, data, perm, force, what)
	if err != nil {
		return err
	}
	return commitFiles([]*pendingFile{f})
}
