// Package prove runs `vg prove -json` (cmd/vg) and reads its report, for
// the checks that depend on the proofs (check_speed, algorithms_table).
package prove

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Row is one element of the JSON array vg prove -json prints.
type Row struct {
	Routine    string  `json:"routine"`
	Variant    string  `json:"variant"`
	Obligation string  `json:"obligation"`
	Status     string  `json:"status"` // proven, tested or failing
	Seconds    float64 `json:"seconds"`
	Detail     string  `json:"detail"`
}

// Key names a routine variant in budgets and tables: "routine/variant".
func (r Row) Key() string {
	if r.Variant == "" {
		return r.Routine
	}
	return r.Routine + "/" + r.Variant
}

// Parse reads vg prove's JSON.
func Parse(data []byte) ([]Row, error) {
	var rows []Row
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("vg prove -json output: %v", err)
	}
	return rows, nil
}

// ReadFile reads a saved vg prove -json output.
func ReadFile(path string) ([]Row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// ErrTimeout is returned by Run when vg prove did not finish in time.
var ErrTimeout = errors.New("vg prove did not finish in time")

// Run builds cmd/vg in root (not timed) and runs `vg prove -json` with the
// given time limit, returning its rows and wall-clock time.
func Run(root string, limit time.Duration) ([]Row, time.Duration, error) {
	tmp, err := os.MkdirTemp("", "vg-prove-")
	if err != nil {
		return nil, 0, err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "vg")
	build := exec.Command("go", "build", "-o", bin, "./cmd/vg")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return nil, 0, fmt.Errorf("go build ./cmd/vg: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "prove", "-json")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	start := time.Now()
	out, err := cmd.Output()
	took := time.Since(start)
	if ctx.Err() != nil {
		return nil, took, ErrTimeout
	}
	// vg prove exits non-zero when an obligation fails; the JSON still says
	// which, so only a missing or broken report is an error here.
	rows, perr := Parse(out)
	if perr != nil {
		if err != nil {
			return nil, took, fmt.Errorf("vg prove -json: %v", err)
		}
		return nil, took, perr
	}
	return rows, took, nil
}
