package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/tools/checks/internal/prove"
	"github.com/vg-crypto/vg/tools/checks/internal/scratch"
)

func budget() Budget {
	return Budget{TotalSeconds: 60, Routines: map[string]float64{"KeccakF1600/AMD64": 2, "RejNTTPoly/AVX2": 3}}
}

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

func tree(t *testing.T, out, sleep string) string {
	return scratch.Tree(t, map[string]string{
		"cmd/vg/main.go": vg(out, sleep),
		self:             "package main\n\nconst totalSeconds = 600\n",
	})
}

func check(t *testing.T, root, saved string, b Budget) []string {
	t.Helper()
	l, _, err := run(root, saved, "", b)
	if err != nil {
		t.Fatal(err)
	}
	return l.Strings()
}

const (
	c = contractDir + ": "
	b = self + ":3: "
)

func TestClean(t *testing.T) {
	root := tree(t, report, "0")
	scratch.Expect(t, check(t, root, "", budget()))
	_, summary, _ := run(root, "", "", budget())
	if !strings.HasPrefix(summary, "2 routine variants within their budgets, ") {
		t.Errorf("summary %q", summary)
	}
}

func TestRoutineOverBudget(t *testing.T) {
	slow := strings.Replace(report, `"seconds":2.5`, `"seconds":3.25`, 1)
	root := tree(t, slow, "0")
	scratch.Expect(t, check(t, root, "", budget()), c+"RejNTTPoly/AVX2: vg prove took 3.2 s, its contract's budget is 3 s")
	// The same from a saved report.
	saved := filepath.Join(t.TempDir(), "prove.json")
	os.WriteFile(saved, []byte(slow), 0o644)
	scratch.Expect(t, check(t, root, saved, budget()), c+"RejNTTPoly/AVX2: vg prove took 3.2 s, its contract's budget is 3 s")
}

func TestSave(t *testing.T) {
	root := tree(t, report, "0")
	out := filepath.Join(t.TempDir(), "saved.json")
	if _, _, err := run(root, "", out, budget()); err != nil {
		t.Fatal(err)
	}
	// The saved report gives the same verdict.
	scratch.Expect(t, check(t, root, out, budget()))
	rows, err := prove.ReadFile(out)
	if err != nil || len(rows) != 3 || rows[2].Key() != "RejNTTPoly/AVX2" {
		t.Errorf("saved %v, %v", rows, err)
	}
}

func TestRoutineWithoutBudget(t *testing.T) {
	more := strings.Replace(report, "]", `,{"routine":"NTT","variant":"AVX2","obligation":"correct","status":"proven","seconds":0.1}]`, 1)
	root := tree(t, more, "0")
	scratch.Expect(t, check(t, root, "", budget()), c+"NTT/AVX2: no contract, so no budget (vg prove took 0.1 s)")
}

func TestStaleBudget(t *testing.T) {
	stale := budget()
	stale.Routines["Gone/AMD64"] = 1
	root := tree(t, report, "0")
	scratch.Expect(t, check(t, root, "", stale), c+"Gone/AMD64: has a contract but vg prove reports no such routine")
}

func TestTotal(t *testing.T) {
	// Over the total while running: stopped at the budget.
	total := func(s float64) Budget { b := budget(); b.TotalSeconds = s; return b }
	root := tree(t, report, "3*time.Second")
	scratch.Expect(t, check(t, root, "", total(1)), b+"vg prove did not finish within the total budget of 1s (stopped)")
	// A total above ten minutes is refused.
	root = tree(t, report, "0")
	scratch.Expect(t, check(t, root, "", total(900)), b+"total budget is 900 s: it must be in (0, 600]")
	// Over the total in a saved report.
	saved := filepath.Join(t.TempDir(), "prove.json")
	os.WriteFile(saved, []byte(report), 0o644)
	scratch.Expect(t, check(t, root, saved, total(3.5)), b+"vg prove took 4.0 s in all, budget 3.5 s")
}

// The budgets are the contracts': one per contract, each positive.
func TestContractBudget(t *testing.T) {
	got := contractBudget()
	if got.TotalSeconds != totalSeconds || len(got.Routines) != len(contract.All()) {
		t.Fatalf("contractBudget() = %+v for %d contracts", got, len(contract.All()))
	}
	for _, ct := range contract.All() {
		if s := got.Routines[ct.Routine+"/"+ct.Variant]; s <= 0 || s != ct.Budget {
			t.Errorf("%s: budget %v, contract %v", ct.Symbol, s, ct.Budget)
		}
	}
}
