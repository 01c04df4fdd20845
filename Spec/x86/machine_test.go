package x86

import "testing"

// Copies on write from a machine with spare bytes start from the shared
// bytes, not from what a released machine left in the bytes it gave back,
// and never change the machine they were cloned from.
func TestSpareBytesStartClean(t *testing.T) {
	base := NewMachine[uint64](Conc{}, 0)
	r := base.AddRegion("mem", Buffer, 0x1000, 64, true, 7)
	r.Written[3] = true
	base.Spare()
	in := &Insn{Op: "MOVQ"}
	var last *Region[uint64]
	for round := range 4 {
		m := base.CloneCOW()
		if err := m.Store(in, uint64(0x1000+8*round), 8, []uint64{0x1122334455667788}); err != nil {
			t.Fatal(err)
		}
		mr := m.Region("mem")
		for i, b := range mr.Bytes {
			want := uint64(7)
			if i >= 8*round && i < 8*round+8 {
				want = 0x1122334455667788 >> (8 * (i - 8*round)) & 0xff
			}
			if b != want {
				t.Fatalf("round %d: byte %d is %#x, want %#x", round, i, b, want)
			}
			if w := i == 3 || i >= 8*round && i < 8*round+8; mr.Written[i] != w {
				t.Fatalf("round %d: written[%d] is %v, want %v", round, i, mr.Written[i], w)
			}
		}
		if round > 0 && &mr.Bytes[0] != &last.Bytes[0] {
			t.Errorf("round %d: the released bytes were not reused", round)
		}
		last = &Region[uint64]{Bytes: mr.Bytes}
		m.Release()
	}
	for i, b := range r.Bytes {
		if b != 7 || r.Written[i] != (i == 3) {
			t.Fatalf("the base machine changed at byte %d: %#x, written %v", i, b, r.Written[i])
		}
	}
	// A region still shared (cloned again after its copy) is not given
	// back: its bytes belong to the clone too.
	m := base.CloneCOW()
	if err := m.Store(in, 0x1000, 8, []uint64{1}); err != nil {
		t.Fatal(err)
	}
	c := m.CloneCOW()
	m.Release()
	if err := base.CloneCOW().Store(in, 0x1008, 8, []uint64{2}); err != nil {
		t.Fatal(err)
	}
	if got := c.Region("mem").Bytes[8]; got != 7 {
		t.Errorf("a clone's shared bytes changed after its parent's release: %#x", got)
	}
}
