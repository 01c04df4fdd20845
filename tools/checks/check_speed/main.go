// Command check_speed keeps `vg prove` fast enough to run on every change:
// each routine variant's proof time (the sum over its obligations) stays
// within its budget in budget.json, and the whole run within the budget's
// total (at most 10 minutes). A routine without a budget, or a budget for a
// routine vg prove does not report, fails too, so the budget stays the list
// of what is proven.
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

	"github.com/vg-crypto/vg/tools/checks/internal/diag"
	"github.com/vg-crypto/vg/tools/checks/internal/prove"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
)

const budgetPath = "tools/checks/check_speed/budget.json"

// maxTotal is the ceiling on the total budget: ten minutes, so CI stays
// usable.
const maxTotal = 600

// Budget is budget.json.
type Budget struct {
	Comment      string             `json:"_comment"`
	TotalSeconds float64            `json:"total_seconds"`
	Routines     map[string]float64 `json:"routines"` // "routine/variant" -> seconds
}

func main() {
	root := flag.String("root", ".", "repository root")
	saved := flag.String("json", "", "read this saved `vg prove -json` output instead of running vg prove")
	save := flag.String("save", "", "write the `vg prove -json` output this run got to this file")
	flag.Parse()
	l, summary, err := run(*root, *saved, *save)
	diag.Exit("check_speed", l, summary, err)
}

func run(root, saved, save string) (diag.List, string, error) {
	r, err := repo.Open(root)
	if err != nil {
		return nil, "", err
	}
	data, err := os.ReadFile(r.Abs(budgetPath))
	if err != nil {
		return nil, "", err
	}
	var b Budget
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, "", fmt.Errorf("%s: %v", budgetPath, err)
	}
	var l diag.List
	totalLine := r.LineOf(budgetPath, `"total_seconds"`)
	if b.TotalSeconds <= 0 || b.TotalSeconds > maxTotal {
		l.Addf(budgetPath, totalLine, "total_seconds is %v: it must be in (0, %d]", b.TotalSeconds, maxTotal)
		b.TotalSeconds = maxTotal
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
			l.Addf(budgetPath, totalLine, "vg prove did not finish within the total budget of %v (stopped)", limit)
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
		l.Addf(budgetPath, totalLine, "vg prove took %.1f s in all, budget %v s", total, b.TotalSeconds)
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
	routinesLine := r.LineOf(budgetPath, `"routines"`)
	for _, k := range keys {
		limit, ok := b.Routines[k]
		switch {
		case !ok:
			l.Addf(budgetPath, routinesLine, "%s: no budget (vg prove took %.1f s)", k, took[k])
		case took[k] > limit:
			l.Addf(budgetPath, r.LineOf(budgetPath, `"`+k+`"`), "%s: vg prove took %.1f s, budget %v s", k, took[k], limit)
		}
	}
	for k := range b.Routines {
		if _, ok := took[k]; !ok {
			l.Addf(budgetPath, r.LineOf(budgetPath, `"`+k+`"`), "%s: has a budget but vg prove reports no such routine", k)
		}
	}
	return l, fmt.Sprintf("%d routine variants within their budgets, %.1f s of %v s in all", len(keys), total, b.TotalSeconds), nil
}
