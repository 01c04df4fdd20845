package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/tools/checks/internal/prove"
	"github.com/vg-crypto/vg/tools/checks/internal/scratch"
)

const budget = `{
	"_comment": "seconds",
	"total_seconds": 60,
	"routines": {
		"KeccakF1600/AMD64": 2,
		"RejNTTPoly/AVX2": 3
	}
}
`

// vg is a fake cmd/vg whose prove prints out (after sleeping sleep).
func vg(out, sleep string) string {
	return `
package main

import (
	"fmt"
	"time"
)

func main() {
	time.Sleep(` + sleep + `)
	fmt.Println(` + "`" + out + "`" + `)
}
`
}

const report = `[
 {"routine":"KeccakF1600","variant":"AMD64","obligation":"memory","status":"proven","seconds":0.5,"detail":""},
 {"routine":"KeccakF1600","variant":"AMD64","obligation":"correct","status":"proven","seconds":1.0,"detail":""},
 {"routine":"RejNTTPoly","variant":"AVX2","obligation":"correct","status":"tested","seconds":2.5,"detail":""}
]`

func tree(t *testing.T, budgetJSON, out, sleep string) string {
	return scratch.Tree(t, map[string]string{
		budgetPath:       budgetJSON,
		"cmd/vg/main.go": vg(out, sleep),
	})
}

func check(t *testing.T, root, saved string) []string {
	t.Helper()
	l, _, err := run(root, saved, "")
	if err != nil {
		t.Fatal(err)
	}
	return l.Strings()
}

const b = budgetPath + ":"

func TestClean(t *testing.T) {
	root := tree(t, budget, report, "0")
	scratch.Expect(t, check(t, root, ""))
	_, summary, _ := run(root, "", "")
	if !strings.HasPrefix(summary, "2 routine variants within their budgets, ") {
		t.Errorf("summary %q", summary)
	}
}

func TestRoutineOverBudget(t *testing.T) {
	slow := strings.Replace(report, `"seconds":2.5`, `"seconds":3.25`, 1)
	root := tree(t, budget, slow, "0")
	scratch.Expect(t, check(t, root, ""), b+"6: RejNTTPoly/AVX2: vg prove took 3.2 s, budget 3 s")
	// The same from a saved report.
	saved := filepath.Join(t.TempDir(), "prove.json")
	os.WriteFile(saved, []byte(slow), 0o644)
	scratch.Expect(t, check(t, root, saved), b+"6: RejNTTPoly/AVX2: vg prove took 3.2 s, budget 3 s")
}

func TestSave(t *testing.T) {
	root := tree(t, budget, report, "0")
	out := filepath.Join(t.TempDir(), "saved.json")
	if _, _, err := run(root, "", out); err != nil {
		t.Fatal(err)
	}
	// The saved report gives the same verdict.
	scratch.Expect(t, check(t, root, out))
	rows, err := prove.ReadFile(out)
	if err != nil || len(rows) != 3 || rows[2].Key() != "RejNTTPoly/AVX2" {
		t.Errorf("saved %v, %v", rows, err)
	}
}

func TestRoutineWithoutBudget(t *testing.T) {
	more := strings.Replace(report, "]", `,{"routine":"NTT","variant":"AVX2","obligation":"correct","status":"proven","seconds":0.1}]`, 1)
	root := tree(t, budget, more, "0")
	scratch.Expect(t, check(t, root, ""), b+"4: NTT/AVX2: no budget (vg prove took 0.1 s)")
}

func TestStaleBudget(t *testing.T) {
	root := tree(t, strings.Replace(budget, `"RejNTTPoly/AVX2": 3`, `"RejNTTPoly/AVX2": 3, "Gone/AMD64": 1`, 1), report, "0")
	scratch.Expect(t, check(t, root, ""), b+"6: Gone/AMD64: has a budget but vg prove reports no such routine")
}

func TestTotal(t *testing.T) {
	// Over the total while running: stopped at the budget.
	root := tree(t, strings.Replace(budget, `"total_seconds": 60`, `"total_seconds": 1`, 1), report, "3*time.Second")
	scratch.Expect(t, check(t, root, ""), b+"3: vg prove did not finish within the total budget of 1s (stopped)")
	// A total above ten minutes is refused.
	root = tree(t, strings.Replace(budget, `"total_seconds": 60`, `"total_seconds": 900`, 1), report, "0")
	scratch.Expect(t, check(t, root, ""), b+"3: total_seconds is 900: it must be in (0, 600]")
	// Over the total in a saved report.
	saved := filepath.Join(t.TempDir(), "prove.json")
	os.WriteFile(saved, []byte(report), 0o644)
	root = tree(t, strings.Replace(budget, `"total_seconds": 60`, `"total_seconds": 3.5`, 1), report, "0")
	scratch.Expect(t, check(t, root, saved), b+"3: vg prove took 4.0 s in all, budget 3.5 s")
}
