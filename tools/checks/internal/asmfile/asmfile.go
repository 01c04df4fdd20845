// Package asmfile reads the Go assembly files of go/asm with Spec/x86's
// parser, the one the proofs trust, and records where each routine is
// compiled and which .go file declares it.
package asmfile

import (
	"go/ast"
	"os"

	"github.com/vg-crypto/vg/Spec/x86"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
)

// Routine is one TEXT symbol as Spec/x86 parses it.
type Routine struct {
	*x86.Routine

	// Set by Load.
	Exists   repo.BuildSet // configurations where the routine is compiled
	DeclFile string        // the .go file declaring it
	Decl     *ast.FuncDecl
}

// Parse reads the .s file at path; name is what diagnostics call it.
func Parse(path, name string) (*x86.File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return x86.ParseFile(name, string(src))
}
