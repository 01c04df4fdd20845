package check

import "time"

// Hints supplies, per routine (TEXT symbol), loop invariants for the
// inductive memory-safety check. Hints are untrusted: the checker assumes
// an invariant at its loop head only after checking that every path into
// the head establishes it, so a wrong hint makes the check fail.
type Hints interface {
	Invariants(symbol string) []Invariant
}

// Invariant is a loop-head invariant: the facts that hold whenever
// control reaches Label. Registers and frame slots not mentioned are
// unknown (and treated as possibly secret) at the head.
type Invariant struct {
	Label string
	Facts []Fact
	// PublicFrame claims every frame byte is public at the head (checked
	// on entry to the head; assumed when the head is explored).
	PublicFrame bool
	// PublicRanges claims the frame bytes [off, off+n) public, likewise.
	PublicRanges [][2]int
	// PublicBuffer claims bytes [off, off+n) of a contract buffer public,
	// likewise (a public counter kept in a secret buffer).
	PublicBuffer map[string][][2]int
}

// Fact constrains one location at a loop head.
//
// Loc is a register ("CX", "Y3") or a frame slot ("frame+400", 8 bytes).
// If Region is set the value is Base(Region) + off, otherwise it is off;
// off ∈ [Lo, Hi] and off ≡ Rem (mod Mod) when Mod > 1; a Y register's
// four words each satisfy the fact. With Any set the value is
// unconstrained and only Public is claimed.
type Fact struct {
	Loc      string
	Region   string
	Lo, Hi   uint64
	Mod, Rem uint64
	Public   bool
	Any      bool
}

// InductiveResult is the outcome of the inductive check.
type InductiveResult struct {
	Err      error
	NoSecret bool // no secret branch, address or non-DOIT operand on any path
	Detail   string
	Seconds  float64
}

func (r *InductiveResult) dur() time.Duration {
	return time.Duration(r.Seconds * float64(time.Second))
}
