//go:build amd64 && !purego

package mldsa

import (
	"math/rand/v2"
	"testing"

	"golang.org/x/sys/cpu"
)

func randElement(r *rand.Rand) ringElement {
	var e ringElement
	for i := range e {
		e[i] = fieldElement(r.Uint32N(q))
	}
	return e
}

// Outputs that alias inputs give what distinct buffers give.
func TestAliasedOutputs(t *testing.T) {
	if !cpu.X86.HasAVX2 {
		t.Skip("the AVX2 routines need AVX2")
	}
	r := rand.New(rand.NewPCG(3, 4))
	a, b := randElement(r), randElement(r)
	var want ringElement
	multiplyNTTGeneric(&want, &a, &b)
	x, y := a, b
	multiplyNTTAVX2(&x, &x, &y)
	if x != want {
		t.Error("multiplyNTTAVX2 with out = a")
	}
	x = a
	multiplyNTTAVX2(&y, &x, &y)
	if y != want {
		t.Error("multiplyNTTAVX2 with out = b")
	}
	rows := make([]ringElement, 8)
	for i := range rows {
		rows[i] = randElement(r)
	}
	var acc ringElement
	multiplyAccNTTGeneric(&acc, rows[:4], rows[4:])
	in := append([]ringElement(nil), rows...)
	multiplyAccNTTAVX2(&in[2], in[:4], in[4:])
	if in[2] != acc {
		t.Error("multiplyAccNTTAVX2 with out inside a")
	}
	if !distinctOutputs(&[4]*ringElement{&rows[0], &rows[1], &rows[2], &rows[3]}) ||
		distinctOutputs(&[4]*ringElement{&rows[0], &rows[1], &rows[0], &rows[3]}) {
		t.Error("distinctOutputs")
	}
	if elemsOverlap(&acc, rows) || !elemsOverlap(&rows[7], rows[6:]) {
		t.Error("elemsOverlap")
	}
}
