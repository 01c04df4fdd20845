package main

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vg-crypto/vg/Spec/check"
)

// reportWidth is the width the report's lines keep to.
const reportWidth = 100

// The report's columns: one per obligation, in check.Obligations' order.
var obligationColumns = []struct{ head, obligation string }{
	{"MEM", check.MemorySafety}, {"CT", check.ConstantTime}, {"ABI", check.ABI},
	{"MCDT", check.MCDT}, {"FEAT", check.Features}, {"FUNC", check.Functional},
}

// report prints vg prove's table: a row per routine as its check finishes,
// then what the callees' levels changed, the details of every obligation
// short of proven, a legend and a summary.
type report struct {
	w        io.Writer
	headed   bool
	streamed map[string]string // routine/variant obligation → status as streamed
}

func newReport(w io.Writer) *report { return &report{w: w, streamed: map[string]string{}} }

func resultKey(r check.Result) string { return r.Routine + "/" + r.Variant + " " + r.Obligation }

func (p *report) header() {
	if p.headed {
		return
	}
	p.headed = true
	fmt.Fprintf(p.w, "%-22s %-7s", "ROUTINE", "VARIANT")
	for _, c := range obligationColumns {
		fmt.Fprintf(p.w, " %-4s", c.head)
	}
	fmt.Fprintf(p.w, " %8s %9s\n", "SECONDS", "DONE")
}

// row prints one routine's results on one line; done is "" or "n/total".
func (p *report) row(rs []check.Result, done string) {
	p.header()
	status := map[string]string{}
	secs := 0.0
	for _, r := range rs {
		status[r.Obligation] = r.Status
		secs += r.Seconds
	}
	fmt.Fprintf(p.w, "%-22s %-7s", rs[0].Routine, rs[0].Variant)
	for _, c := range obligationColumns {
		fmt.Fprintf(p.w, " %-4s", letter(status[c.obligation]))
	}
	fmt.Fprintf(p.w, " %8.2f %9s\n", secs, done)
}

func letter(status string) string {
	switch status {
	case check.Proven:
		return "P"
	case check.Tested:
		return "T"
	case check.Failing:
		return "F"
	}
	return "-"
}

// routine is PackageOptions.Done: it prints the routine's row at once.
func (p *report) routine(done, total int, rs []check.Result) {
	if len(rs) == 0 {
		return
	}
	for _, r := range rs {
		p.streamed[resultKey(r)] = r.Status
	}
	p.row(rs, fmt.Sprintf("%d/%d", done, total))
}

// finish prints what follows the rows: the routines whose levels their
// callees lowered, the details, the legend and the summary.
func (p *report) finish(results []check.Result, verbose bool, elapsed time.Duration) {
	// Group the results of the six obligations by routine, in order.
	var order []string
	groups := map[string][]check.Result{}
	isColumn := map[string]bool{}
	for _, c := range obligationColumns {
		isColumn[c.obligation] = true
	}
	for _, r := range results {
		if !isColumn[r.Obligation] {
			continue
		}
		k := r.Routine + "/" + r.Variant
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	var changed []string
	for _, k := range order {
		for _, r := range groups[k] {
			if st, ok := p.streamed[resultKey(r)]; !ok || st != r.Status {
				changed = append(changed, k)
				break
			}
		}
	}
	if len(changed) > 0 {
		if p.headed {
			fmt.Fprintln(p.w, "\nAfter the callees' levels (the rows above are each routine's own check):")
		}
		for _, k := range changed {
			p.row(groups[k], "")
		}
	}
	var counts [3]int
	routines := map[string]bool{}
	var details []check.Result
	for _, r := range results {
		routines[r.Routine+"/"+r.Variant] = true
		switch r.Status {
		case check.Proven:
			counts[0]++
		case check.Tested:
			counts[1]++
		default:
			counts[2]++
		}
		if verbose || r.Status != check.Proven {
			details = append(details, r)
		}
	}
	if len(details) > 0 {
		fmt.Fprintln(p.w, "\nDetails:")
		for _, r := range details {
			head := fmt.Sprintf("%s/%s %s: %s", r.Routine, r.Variant, r.Obligation, r.Status)
			if r.Variant == "" {
				head = fmt.Sprintf("%s %s: %s", r.Routine, r.Obligation, r.Status)
			}
			fmt.Fprintln(p.w, "  "+head)
			for _, l := range wrap(r.Detail, reportWidth-6) {
				fmt.Fprintln(p.w, "      "+l)
			}
		}
	}
	fmt.Fprintln(p.w, "\nP proven (for every input)  T tested (on the inputs run)  F failing  - not reported")
	var legend []string
	for _, c := range obligationColumns {
		if c.head == c.obligation {
			legend = append(legend, c.head)
		} else {
			legend = append(legend, c.head+" "+c.obligation)
		}
	}
	fmt.Fprintln(p.w, strings.Join(legend, "  "))
	fmt.Fprintf(p.w, "%d obligations of %d routines: %d proven, %d tested, %d failing; %.1f s\n",
		len(results), len(routines), counts[0], counts[1], counts[2], elapsed.Seconds())
}

// wrap breaks s into lines of at most width characters at spaces (a word
// longer than width stays whole).
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
