// Package diag collects a check's findings as "file:line: message" lines
// and ends the program the way every check in tools/checks does.
package diag

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// Diag is one finding. File is relative to the repository root.
type Diag struct {
	File string
	Line int
	Msg  string
}

func (d Diag) String() string {
	if d.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Msg)
	}
	return fmt.Sprintf("%s: %s", d.File, d.Msg)
}

// List is a check's findings.
type List []Diag

// Addf adds a finding.
func (l *List) Addf(file string, line int, format string, args ...any) {
	*l = append(*l, Diag{file, line, fmt.Sprintf(format, args...)})
}

// Strings returns the findings sorted by file and line, one string each.
func (l List) Strings() []string {
	s := append(List(nil), l...)
	sort.SliceStable(s, func(i, j int) bool {
		if s[i].File != s[j].File {
			return s[i].File < s[j].File
		}
		return s[i].Line < s[j].Line
	})
	out := make([]string, len(s))
	for i, d := range s {
		out[i] = d.String()
	}
	return out
}

// Exit prints the findings (or the one-line OK summary when there are none)
// and exits: 0 when clean, 1 on findings, 2 when the check could not run.
func Exit(name string, l List, summary string, err error) {
	os.Exit(Print(os.Stdout, os.Stderr, name, l, summary, err))
}

// Print writes what Exit prints and returns the exit code.
func Print(out, errOut io.Writer, name string, l List, summary string, err error) int {
	if err != nil {
		fmt.Fprintf(errOut, "%s: %v\n", name, err)
		return 2
	}
	if len(l) > 0 {
		for _, s := range l.Strings() {
			fmt.Fprintln(errOut, s)
		}
		fmt.Fprintf(errOut, "%s: FAIL: %d problem(s)\n", name, len(l))
		return 1
	}
	fmt.Fprintf(out, "%s: OK: %s\n", name, summary)
	return 0
}
