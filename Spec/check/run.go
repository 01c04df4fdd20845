package check

import (
	"math/rand/v2"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/x86"
)

// Run runs routine r of f once in the concrete model under contract c
// with input in (a copy is taken) and returns the buffers and the result
// byte. Registers, the frame and the saved-BP slot start as garbage drawn
// from seed, as in the functional test. It is the model's side of the
// cosimulation of whole routines.
func Run(f *x86.File, r *x86.Routine, c *contract.Contract, in contract.Buffers, seed uint64) (contract.Buffers, byte, error) {
	return RunCalls(f, r, c, in, seed, nil)
}

// RunCalls is Run for a routine that calls others: callees holds their
// decoded routines, and each is replaced by its contract's Effect.
func RunCalls(f *x86.File, r *x86.Routine, c *contract.Contract, in contract.Buffers, seed uint64,
	callees map[string]*x86.Routine) (contract.Buffers, byte, error) {
	rng := rand.New(rand.NewPCG(seed, 7))
	return concRun(f, r, c, copyBuffers(in), rng, 2_000_000, callees)
}
