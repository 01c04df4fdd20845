package check

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/vg-crypto/vg/Spec/x86"
)

// z3Ask writes the SMT-LIB script that asserts every term of nonzero
// nonzero, every term of zero zero and, when differ holds two terms, that
// they differ, and returns z3's answer (sat, unsat or unknown). The terms
// go to z3 as bit-vector terms, not as the blaster's clauses, so an
// answer checks the bit-blasting too. limit is z3's own time limit; the
// process is stopped a second after it (the answer is then unknown) or at
// the deadline (an error).
func z3Ask(z3 string, nonzero, zero, differ []*x86.Term, limit time.Duration, deadline time.Time) (string, error) {
	var defs []string
	seen := map[int]bool{}
	vars := map[string]bool{}
	var decls, asserts []string
	const zeroWord = "#x0000000000000000"
	smt := func(t *x86.Term) string {
		for _, v := range x86.Vars(t) {
			if !vars[v] {
				vars[v] = true
				decls = append(decls, fmt.Sprintf("(declare-const %s (_ BitVec 64))", v))
			}
		}
		return x86.SMT(t, &defs, seen)
	}
	for _, t := range nonzero {
		asserts = append(asserts, fmt.Sprintf("(assert (not (= %s %s)))", smt(t), zeroWord))
	}
	for _, t := range zero {
		asserts = append(asserts, fmt.Sprintf("(assert (= %s %s))", smt(t), zeroWord))
	}
	if len(differ) == 2 {
		asserts = append(asserts, fmt.Sprintf("(assert (not (= %s %s)))", smt(differ[0]), smt(differ[1])))
	}
	script := strings.Join(decls, "\n") + "\n" + strings.Join(defs, "\n") + "\n" + strings.Join(asserts, "\n") + "\n(check-sat)\n"
	// z3's own limit is not always kept (it may be building its formula
	// when it passes), so the process is stopped a second after it.
	stop := time.Now().Add(limit + time.Second)
	if deadline.Before(stop) {
		stop = deadline
	}
	ctx, cancel := context.WithDeadline(context.Background(), stop)
	defer cancel()
	cmd := exec.CommandContext(ctx, z3, fmt.Sprintf("-t:%d", max(limit.Milliseconds(), 1)), "-in")
	cmd.Stdin = strings.NewReader(script)
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil && stop.Before(deadline) {
			return "unknown", nil // stopped at its limit, before the proof's deadline
		}
		return "", fmt.Errorf("z3 (second opinion): %v: %s", err, firstLine(out.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

// z3Sample is the second opinion of a proof whose SAT queries are too many
// for z3 to answer all (tens of thousands in the sampler proofs, some of
// which take z3 seconds): where z3 is on PATH, it re-asks z3 the first
// z3First queries the SAT solver answered unsat (certificate checked) and
// then one in z3Every, while the proof's time with z3 stays under
// z3Budget. z3 answering sat fails the proof; unknown (its time limit of
// z3Limit a query) is counted and reported, not taken as agreement.
type z3Sample struct {
	path                      string // z3's, "" when not on PATH
	looked                    bool
	n, asked, agreed, unknown int
	spent                     time.Duration
	budget                    time.Duration // z3Budget when zero
}

const (
	z3First  = 16
	z3Every  = 64
	z3Budget = 2 * time.Second
	z3Limit  = time.Second
)

// again re-asks z3, when the sample takes this query, whether the
// assumptions can be nonzero with goal zero (goal set), or a and b differ.
func (z *z3Sample) again(assume []*x86.Term, goal *x86.Term, differ []*x86.Term, deadline time.Time) error {
	if !z.looked {
		z.looked = true
		if p, err := exec.LookPath("z3"); err == nil {
			z.path = p
		}
	}
	z.n++
	budget := z.budget
	if budget == 0 {
		budget = z3Budget
	}
	if z.path == "" || z.spent >= budget || (z.n > z3First && z.n%z3Every != 0) {
		return nil
	}
	var zero []*x86.Term
	if goal != nil {
		zero = []*x86.Term{goal}
	}
	t0 := time.Now()
	ans, err := z3Ask(z.path, assume, zero, differ, min(z3Limit, budget-z.spent), deadline)
	z.spent += time.Since(t0)
	z.asked++
	switch {
	case err != nil:
		return err
	case ans == "unsat":
		z.agreed++
	case ans == "unknown" || ans == "timeout":
		z.unknown++
	default:
		return fmt.Errorf("the SAT solver says unsat (certificate checked), z3 says %s: disagreement", firstLine(ans))
	}
	return nil
}

// holds re-asks a satHolds query that was certified unsat.
func (z *z3Sample) holds(assume []*x86.Term, goal *x86.Term, deadline time.Time) error {
	return z.again(assume, goal, nil, deadline)
}

// equal re-asks a satEqual query that was certified unsat.
func (z *z3Sample) equal(a, b *x86.Term, deadline time.Time) error {
	return z.again(nil, nil, []*x86.Term{a, b}, deadline)
}

// note is the sample's line for a proof's detail.
func (z *z3Sample) note() string {
	if z.path == "" {
		return "z3 not on PATH: no second opinion"
	}
	s := fmt.Sprintf("z3 re-asked %d of the %d certified SAT queries at the term level (the first %d, then one in %d, within %v) and agrees on %d",
		z.asked, z.n, z3First, z3Every, z3Budget, z.agreed)
	if z.unknown > 0 {
		s += fmt.Sprintf(", %d unknown at its limit of %v", z.unknown, z3Limit)
	}
	return s
}
