//go:build !purego

package cosim

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	x86 "github.com/vg-crypto/vg/Spec/x86"
)

// TestDataTables compares, for every DATA/GLOBL symbol of go/asm, the bytes
// the Go assembler lays down (the harness holds a copy of the same lines)
// with the bytes Spec/x86's parser reads: offsets, widths, byte order and
// zero fill.
func TestDataTables(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(asmDir(t), "*.s"))
	if err != nil {
		t.Fatal(err)
	}
	copied := map[string]Table{}
	for _, tb := range Tables() {
		copied[tb.File+" "+tb.Name] = tb
	}
	n := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := x86.ParseFile(filepath.Base(name), string(src))
		if err != nil {
			t.Fatal(err)
		}
		for sym, d := range f.Data {
			tb, ok := copied[filepath.Base(name)+" "+sym]
			if !ok {
				t.Errorf("%s: %s has no copy in the harness: run go run ./internal/cosim/gen", name, sym)
				continue
			}
			if d.Size != tb.Size || len(d.Bytes) != d.Size {
				t.Errorf("%s: %s: model size %d (%d bytes), GLOBL size %d", name, sym, d.Size, len(d.Bytes), tb.Size)
				continue
			}
			cpu := unsafe.Slice((*byte)(tb.Addr()), tb.Size)
			if !bytes.Equal(d.Bytes, cpu) {
				t.Errorf("%s: %s: model bytes\n%x\nassembler bytes\n%x", name, sym, d.Bytes, cpu)
			}
			n++
		}
	}
	if n != len(Tables()) {
		t.Errorf("compared %d tables, the harness has %d", n, len(Tables()))
	}
	t.Logf("%d DATA tables agree with the Go assembler", n)
}
