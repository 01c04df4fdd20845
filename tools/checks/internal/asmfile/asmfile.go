// Package asmfile reads Go assembly files as avo writes them into go/asm:
// routines (TEXT symbols), their "// func" and "// Requires:" comment lines,
// and their instructions with line numbers.
package asmfile

import (
	"go/ast"

	"bufio"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
	"os"
	"strings"
)

// Insn is one instruction line.
type Insn struct {
	Line int
	Op   string   // upper case, e.g. "VPMULUDQ"
	Args []string // operands as written, trimmed
	Text string   // the whole line, trimmed
}

// Routine is one TEXT symbol.
type Routine struct {
	File     string // as given to Parse
	Name     string // without the package dot, e.g. "KeccakF1600AMD64"
	Line     int    // line of TEXT
	Func     string // Go declaration from the "// func" line, if any
	Requires []string
	Labels   map[string]int // label -> index into Insns of the next instruction
	Insns    []Insn

	// Set by Load.
	Exists   repo.BuildSet // configurations where the routine is compiled
	DeclFile string        // the .go file declaring it
	Decl     *ast.FuncDecl
}

// Data is one DATA directive: DATA sym+off(SB)/width, $value.
type Data struct {
	Line   int
	Sym    string // e.g. "mxcsr<>"
	Offset string
	Width  string
	Value  string
}

// File is a parsed .s file.
type File struct {
	Path     string
	Routines []*Routine
	Data     []Data
}

// Parse reads the .s file at path; name is what diagnostics call it.
func Parse(path, name string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := &File{Path: name}
	var cur *Routine
	var funcLine string
	var requires []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	inBlock := false
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if inBlock {
			if i := strings.Index(line, "*/"); i >= 0 {
				line, inBlock = strings.TrimSpace(line[i+2:]), false
			} else {
				continue
			}
		}
		if c, ok := strings.CutPrefix(line, "//"); ok {
			c = strings.TrimSpace(c)
			if rest, ok := strings.CutPrefix(c, "func "); ok {
				funcLine, requires = rest, nil
			} else if rest, ok := strings.CutPrefix(c, "Requires:"); ok {
				for _, r := range strings.Split(rest, ",") {
					if r = strings.TrimSpace(r); r != "" {
						requires = append(requires, r)
					}
				}
			}
			continue
		}
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if i := strings.Index(line, "/*"); i >= 0 {
			if !strings.Contains(line[i:], "*/") {
				inBlock = true
			}
			line = strings.TrimSpace(line[:i])
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		// Several statements may share a line, separated by ';'.
		for _, stmt := range strings.Split(line, ";") {
			stmt = strings.TrimSpace(stmt)
			if stmt == "" {
				continue
			}
			op, rest, _ := strings.Cut(stmt, " ")
			if j := strings.IndexByte(op, '\t'); j >= 0 {
				op, rest = op[:j], op[j:]+" "+rest
			}
			rest = strings.TrimSpace(rest)
			if strings.HasSuffix(op, ":") && rest != "" {
				// A label and an instruction on one line.
				if cur != nil {
					cur.Labels[strings.TrimSuffix(op, ":")] = len(cur.Insns)
				}
				op, rest, _ = strings.Cut(rest, " ")
				rest = strings.TrimSpace(rest)
			}
			switch {
			case strings.HasSuffix(op, ":") && rest == "":
				if cur != nil {
					cur.Labels[strings.TrimSuffix(op, ":")] = len(cur.Insns)
				}
			case op == "TEXT":
				name := rest
				if i := strings.Index(name, "(SB)"); i >= 0 {
					name = name[:i]
				}
				name = strings.TrimPrefix(strings.TrimSpace(name), "·")
				if i := strings.LastIndex(name, "·"); i >= 0 {
					name = name[i+len("·"):]
				}
				cur = &Routine{File: name, Name: name, Line: n, Func: funcLine, Requires: requires, Labels: map[string]int{}}
				cur.File = out.Path
				out.Routines = append(out.Routines, cur)
				funcLine, requires = "", nil
			case op == "DATA":
				d := Data{Line: n}
				lhs, val, _ := strings.Cut(rest, ",")
				d.Value = strings.TrimSpace(val)
				lhs = strings.TrimSpace(lhs)
				if i := strings.Index(lhs, "(SB)"); i >= 0 {
					symoff := lhs[:i]
					d.Width = strings.TrimPrefix(lhs[i+4:], "/")
					d.Sym, d.Offset, _ = strings.Cut(symoff, "+")
					if d.Offset == "" {
						d.Offset = "0"
					}
				}
				out.Data = append(out.Data, d)
			case op == "GLOBL":
			default:
				if cur == nil {
					continue
				}
				var args []string
				if rest != "" {
					for _, a := range splitArgs(rest) {
						args = append(args, strings.TrimSpace(a))
					}
				}
				cur.Insns = append(cur.Insns, Insn{Line: n, Op: strings.ToUpper(op), Args: args, Text: stmt})
			}
		}
	}
	return out, sc.Err()
}

// splitArgs splits operands at commas outside parentheses.
func splitArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
