package cosim

import "unsafe"

// MemSize is the size of the scratch memory that memory operands address.
const MemSize = 256

// State is the machine state a harness function loads and stores. Its
// layout is fixed: the generator writes the offsets into the assembly and
// a test checks them.
type State struct {
	GPR   [16]uint64 // AX CX DX BX SP BP SI DI R8..R15 (SP is neither loaded nor stored)
	Flags uint64     // RFLAGS; only CF PF AF ZF SF OF are loaded
	MXCSR uint32
	_     uint32
	Taken uint64 // 1 if the branch under test was taken
	_     uint64
	Y     [16][32]byte // ymm0..ymm15, byte i of a register is bits 8i..8i+7
	Mem   [MemSize]byte
	Z     [32][64]byte // zmm0..zmm31, loaded and stored instead of Y by a wide case
	// Wide says which vector registers the state holds: Z (a wide case's
	// harness loads and stores zmm0–31) or Y. Only Go reads it.
	Wide bool
}

// Vec returns word w of vector register i of the registers s holds (Z if
// s.Wide, else Y).
func (s *State) Vec(i, w int) uint64 {
	if s.Wide {
		return leU64(s.Z[i][8*w:])
	}
	return leU64(s.Y[i][8*w:])
}

// SetVec sets word w of vector register i (Z if s.Wide, else Y).
func (s *State) SetVec(i, w int, v uint64) {
	b := s.Y[i%16][:]
	if s.Wide {
		b = s.Z[i][:]
	}
	for k := 0; k < 8; k++ {
		b[8*w+k] = byte(v >> (8 * k))
	}
}

// VecShape returns the number of vector registers and of words per
// register s holds: 32 and 8 if s.Wide, else 16 and 4.
func (s *State) VecShape() (regs, words int) {
	if s.Wide {
		return 32, 8
	}
	return 16, 4
}

func leU64(b []byte) uint64 {
	var v uint64
	for k := 7; k >= 0; k-- {
		v = v<<8 | uint64(b[k])
	}
	return v
}

// Field offsets in State, as the generator writes them into the harness.
const (
	OffGPR   = 0
	OffFlags = 128
	OffMXCSR = 136
	OffTaken = 144
	OffY     = 160
	OffMem   = 672
	OffZ     = 928
)

// Status flags of RFLAGS.
const (
	FlagCF     = 1 << 0
	FlagPF     = 1 << 2
	FlagAF     = 1 << 4
	FlagZF     = 1 << 6
	FlagSF     = 1 << 7
	FlagOF     = 1 << 11
	StatusMask = FlagCF | FlagPF | FlagAF | FlagZF | FlagSF | FlagOF
)

// Case is one representative instruction and its harness function.
type Case struct {
	Form   string       // e.g. "VPXOR ymm, ymm, ymm"
	Text   string       // e.g. "VPXOR Y1, Y9, Y14"
	Source string       // "go/asm", or "catalog" for a form go/asm does not use yet
	Wide   bool         // an AVX-512 case: the harness loads and stores zmm0–31 (State.Z)
	Run    func(*State) // runs Text on the CPU
}

// Table is a DATA/GLOBL symbol of go/asm as the Go assembler laid it down
// in the harness (under another name, from the same lines).
type Table struct {
	File string // file of go/asm
	Name string // symbol, without · and <>
	Size int
	Addr func() unsafe.Pointer
}

// Frame is a harness function with the frame size and flags of a routine
// of go/asm: Run writes the hardware SP in its body, the address of its
// argument (out+0(FP)) and the address of local-8(SP) (0 if the frame is
// smaller than 8 bytes).
type Frame struct {
	Routine string
	Size    int
	Run     func(out *[3]uint64)
}

// Frames returns the frame probes (empty on platforms without a harness).
func Frames() []Frame { return frames }

// Tables returns the copied tables (empty on platforms without a harness).
func Tables() []Table { return tables }

// Cases returns the generated cases (empty on platforms without a harness).
func Cases() []Case { return cases }
