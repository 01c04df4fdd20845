// Command check_speed keeps `vg prove` fast enough to run on every change:
// each routine variant's proof time (the sum over its obligations) stays
// within the budget its contract declares (Spec/contract, Budget), and the
// whole run within ten minutes. A routine vg prove reports without a
// contract, or a contract vg prove does not report, fails too.
//
// Usage, from the repository root:
//
//	go run ./tools/checks/check_speed [-root dir] [-json saved.json] [-save out.json]
//
// Without -json it builds cmd/vg and runs `vg prove -json`, stopping it at
// the total budget (-save keeps its output, e.g. for algorithms_table
// -json); with -json it reads a saved output (sum of seconds as the total).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/tools/checks/internal/diag"
	"github.com/vg-crypto/vg/tools/checks/internal/prove"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
)

// Where the findings point: the budgets are the contracts'.
const (
	contractDir = "Spec/contract"
	self        = "tools/checks/check_speed/main.go"
)

// totalSeconds is the budget of a whole vg prove run: ten minutes, so CI
// stays usable.
const totalSeconds = 600

// Budget is what a run is held to.
type Budget struct {
	TotalSeconds float64
	Routines     map[string]float64 // "routine/variant" (vg prove -json's names) -> seconds
}

// contractBudget is the budget the contracts declare.
func contractBudget() Budget {
	b := Budget{TotalSeconds: totalSeconds, Routines: map[string]float64{}}
	for _, c := range contract.All() {
		b.Routines[c.Routine+"/"+c.Variant] = c.Budget
	}
	return b
}

func main() {
	root := flag.String("root", ".", "repository root")
	saved := flag.String("json", "", "read this saved `vg prove -json` output instead of running vg prove")
	save := flag.String("save", "", "write the `vg prove -json` output this run got to this file")
	flag.Parse()
	l, summary, err := run(*root, *saved, *save, contractBudget())
	diag.Exit("check_speed", l, summary, err)
}

func run(root, saved, save string, b Budget) (diag.List, string, error) {
	r, err := repo.Open(root)
	if err != nil {
		return nil, "", err
	}
	var l diag.List
	totalLine := r.LineOf(self, "const totalSeconds")
	if b.TotalSeconds <= 0 || b.TotalSeconds > totalSeconds {
		l.Addf(self, totalLine, "total budget is %v s: it must be in (0, %d]", b.TotalSeconds, totalSeconds)
		b.TotalSeconds = totalSeconds
	}
	var rows []prove.Row
	var total float64
	if saved != "" {
		if rows, err = prove.ReadFile(saved); err != nil {
			return nil, "", err
		}
		for _, row := range rows {
			total += row.Seconds
		}
	} else {
		limit := time.Duration(b.TotalSeconds * float64(time.Second))
		var took time.Duration
		rows, took, err = prove.Run(r.Root, limit)
		if errors.Is(err, prove.ErrTimeout) {
			l.Addf(self, totalLine, "vg prove did not finish within the total budget of %v (stopped)", limit)
			return l, "", nil
		} else if err != nil {
			return nil, "", err
		}
		total = took.Seconds()
	}
	if save != "" {
		data, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			return nil, "", err
		}
		if err := os.WriteFile(save, append(data, '\n'), 0o644); err != nil {
			return nil, "", err
		}
	}
	if total > b.TotalSeconds {
		l.Addf(self, totalLine, "vg prove took %.1f s in all, budget %v s", total, b.TotalSeconds)
	}
	took := map[string]float64{}
	for _, row := range rows {
		took[row.Key()] += row.Seconds
	}
	keys := make([]string, 0, len(took))
	for k := range took {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		limit, ok := b.Routines[k]
		switch {
		case !ok:
			l.Addf(contractDir, 0, "%s: no contract, so no budget (vg prove took %.1f s)", k, took[k])
		case took[k] > limit:
			l.Addf(contractDir, 0, "%s: vg prove took %.1f s, its contract's budget is %v s", k, took[k], limit)
		}
	}
	for k := range b.Routines {
		if _, ok := took[k]; !ok {
			l.Addf(contractDir, 0, "%s: has a contract but vg prove reports no such routine", k)
		}
	}
	return l, fmt.Sprintf("%d routine variants within their budgets, %.1f s of %v s in all", len(keys), total, b.TotalSeconds), nil
}
