package vectors

import (
	"fmt"
	"path/filepath"
)

// Declared reads the vector files in dir and returns, per file (in the
// order of Files) and per group, the number of cases they declare, with
// Ran and Passed zero. RunCounts checks what it ran against it, and other
// checks may use it to see that no file or group is dropped.
func Declared(dir string) ([]FileCount, error) {
	var out []FileCount
	for _, m := range acvpModes {
		fc := FileCount{File: "acvp/" + m}
		groups, err := acvpFile(filepath.Join(dir, "acvp", m), m, "prompt.json")
		if err != nil {
			return nil, err
		}
		for _, g := range groups {
			tests, err := g.objects("tests")
			if err != nil {
				return nil, err
			}
			fc.Declared += len(tests)
			fc.Groups = append(fc.Groups, GroupCount{Group: acvpGroupName(m, g), Ran: len(tests)})
		}
		out = append(out, fc)
	}
	for _, f := range wycheproofFiles() {
		fc := FileCount{File: "wycheproof/" + f}
		o, err := readObject(filepath.Join(dir, "wycheproof", f))
		if err != nil {
			return nil, err
		}
		if fc.Declared, err = o.integer("numberOfTests"); err != nil {
			return nil, err
		}
		groups, err := o.objects("testGroups")
		if err != nil {
			return nil, err
		}
		for i, g := range groups {
			tests, err := g.objects("tests")
			if err != nil {
				return nil, err
			}
			fc.Groups = append(fc.Groups, GroupCount{Group: wycheproofGroupName(i), Ran: len(tests)})
		}
		out = append(out, fc)
	}
	return out, nil
}

// CompareCounts checks what a run did (ran, from RunCounts) against what
// the files declare (declared, from Declared, whose GroupCount.Ran holds
// each group's number of cases): the same files and groups in the same
// order, every case of every group run and passed.
func CompareCounts(ran, declared []FileCount) error {
	if len(ran) != len(declared) {
		return fmt.Errorf("ran %d files, %d declared", len(ran), len(declared))
	}
	for i, d := range declared {
		r := ran[i]
		if r.File != d.File || r.Declared != d.Declared {
			return fmt.Errorf("file %d: ran %s declaring %d, want %s declaring %d", i, r.File, r.Declared, d.File, d.Declared)
		}
		if err := checkCounts(r); err != nil {
			return err
		}
		if len(r.Groups) != len(d.Groups) {
			return fmt.Errorf("%s: ran %d groups, %d declared", d.File, len(r.Groups), len(d.Groups))
		}
		for j, dg := range d.Groups {
			rg := r.Groups[j]
			if rg.Group != dg.Group || rg.Ran != dg.Ran || rg.Passed != rg.Ran {
				return fmt.Errorf("%s: group %q ran %d, passed %d; want group %q with %d cases", d.File, rg.Group, rg.Ran, rg.Passed, dg.Group, dg.Ran)
			}
		}
	}
	return nil
}
