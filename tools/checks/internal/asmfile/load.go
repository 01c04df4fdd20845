package asmfile

import (
	"go/ast"

	"github.com/vg-crypto/vg/tools/checks/internal/repo"
)

// Routines are the TEXT routines of a directory's .s files, by name.
type Routines map[string]*Routine

// Load reads every .s file of dir (relative to the root) and sets each
// routine's Exists: the configurations where both its .s file and the .go
// file declaring it (a body-less func) are compiled.
func Load(r *repo.Repo, dir string) (Routines, error) {
	files, err := r.Files(dir, ".s")
	if err != nil {
		return nil, err
	}
	out := Routines{}
	for _, rel := range files {
		f, err := Parse(r.Abs(rel), rel)
		if err != nil {
			return nil, err
		}
		set, err := r.BuildSetOf(rel)
		if err != nil {
			return nil, err
		}
		for _, rt := range f.Routines {
			out[rt.Name] = &Routine{Routine: rt, Exists: set}
		}
	}
	gos, err := r.Files(dir, ".go")
	if err != nil {
		return nil, err
	}
	for _, rel := range gos {
		f, err := r.Parse(rel)
		if err != nil {
			return nil, err
		}
		var set repo.BuildSet
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body != nil || fd.Recv != nil {
				continue
			}
			rt := out[fd.Name.Name]
			if rt == nil {
				continue
			}
			if set == nil {
				if set, err = r.BuildSetOf(rel); err != nil {
					return nil, err
				}
			}
			both := repo.BuildSet{}
			for c := range rt.Exists {
				if set[c] {
					both[c] = true
				}
			}
			rt.Exists, rt.DeclFile, rt.Decl = both, rel, fd
		}
	}
	return out, nil
}
