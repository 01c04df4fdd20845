//go:build !purego

package cosim

import (
	"strings"

	"github.com/vg-crypto/vg/internal/cosim/forms"
)

// undefinedFlags returns the status flags the Intel SDM (Vol. 2, the
// "Flags Affected" section of each instruction) leaves undefined after in
// runs from state s. They are left out of the comparison; every other flag,
// including flags an instruction leaves unaffected, must agree.
func undefinedFlags(in forms.Insn, s *State) uint64 {
	mn := in.Mnemonic
	switch {
	case mn == "ANDNQ":
		// ANDN: "SF and ZF are updated based on result. OF and CF flags
		// are cleared. AF and PF flags are undefined."
		return FlagAF | FlagPF
	case mn == "RORXQ":
		// RORX: "Flags Affected: None."
		return 0
	case strings.HasPrefix(mn, "AND"), strings.HasPrefix(mn, "OR"),
		strings.HasPrefix(mn, "XOR"), strings.HasPrefix(mn, "TEST"):
		// AND, OR, XOR, TEST: "The OF and CF flags are cleared; the SF, ZF,
		// and PF flags are set according to the result. The state of the AF
		// flag is undefined."
		if in.Ops[len(in.Ops)-1].Kind[0] == 'x' || in.Ops[len(in.Ops)-1].Kind[0] == 'y' {
			return 0 // PXOR and friends touch no flags
		}
		return FlagAF
	case strings.HasPrefix(mn, "SHL"), strings.HasPrefix(mn, "SHR"), strings.HasPrefix(mn, "SAR"):
		// SAL/SAR/SHL/SHR: "The OF flag is affected only for 1-bit shifts;
		// otherwise, it is undefined. ... For a non-zero count, the AF flag
		// is undefined." A masked count of 0 affects no flag.
		switch n := shiftCount(in, s); {
		case n == 0:
			return 0
		case n == 1:
			return FlagAF
		default:
			return FlagAF | FlagOF
		}
	case strings.HasPrefix(mn, "ROL"), strings.HasPrefix(mn, "ROR"):
		// RCL/RCR/ROL/ROR, Flags Affected: "If the masked count is 0, the
		// flags are not affected. If the masked count is 1, then the OF flag
		// is affected, otherwise (masked count is greater than 1) the OF flag
		// is undefined." SF, ZF, AF and PF are always unaffected. (The
		// entry's Operation section reads "ELSE OF is undefined" for a zero
		// count too; this follows the Flags Affected section, which the CPU
		// and the model agree with.)
		if n := shiftCount(in, s); n >= 2 {
			return FlagOF
		}
		return 0
	case strings.HasPrefix(mn, "IMUL"), strings.HasPrefix(mn, "MUL"):
		// IMUL, MUL: "The SF, ZF, AF, and PF flags are undefined."
		return FlagSF | FlagZF | FlagAF | FlagPF
	}
	return 0
}

// shiftCount is the masked count of a shift or rotate: the immediate or
// CL, masked to 5 bits (6 with REX.W, i.e. the Q forms).
func shiftCount(in forms.Insn, s *State) uint64 {
	var n uint64
	switch o := in.Ops[0]; o.Kind {
	case "imm":
		n = uint64(o.Imm)
	case "cl":
		n = s.GPR[1] & 0xff
	}
	if strings.HasSuffix(in.Mnemonic, "Q") {
		return n & 63
	}
	return n & 31
}

// conditionFlags are the flags each Go condition suffix reads.
var conditionFlags = map[string]uint64{
	"EQ": FlagZF, "NE": FlagZF, "CS": FlagCF, "CC": FlagCF,
	"LT": FlagSF | FlagOF, "GE": FlagSF | FlagOF, "LE": FlagZF | FlagSF | FlagOF, "GT": FlagZF | FlagSF | FlagOF,
	"LS": FlagCF | FlagZF, "HI": FlagCF | FlagZF, "MI": FlagSF, "PL": FlagSF,
}

// readsFlags returns the flags in reads (Jcc, SETcc, CMOVcc by their
// condition; ADC and SBB read CF).
func readsFlags(in forms.Insn) uint64 {
	mn := in.Mnemonic
	switch {
	case strings.HasPrefix(mn, "J"):
		return conditionFlags[mn[1:]]
	case strings.HasPrefix(mn, "SET"):
		return conditionFlags[mn[3:]]
	case strings.HasPrefix(mn, "CMOV"):
		return conditionFlags[mn[5:]]
	case strings.HasPrefix(mn, "ADC"), strings.HasPrefix(mn, "SBB"):
		return FlagCF
	}
	return 0
}

// writtenFlags returns the flags in sets or leaves undefined (the others
// keep their values): none for Jcc, SETcc and CMOVcc; all but CF for INC
// and DEC; CF and OF for a rotate by a non-zero count; all for the other
// flag-setting instructions of the pairs.
func writtenFlags(in forms.Insn, s *State) uint64 {
	mn := in.Mnemonic
	switch {
	case strings.HasPrefix(mn, "J"), strings.HasPrefix(mn, "SET"), strings.HasPrefix(mn, "CMOV"), mn == "RORXQ":
		return 0
	case strings.HasPrefix(mn, "INC"), strings.HasPrefix(mn, "DEC"):
		return StatusMask &^ FlagCF
	case strings.HasPrefix(mn, "ROL"), strings.HasPrefix(mn, "ROR"):
		if shiftCount(in, s) == 0 {
			return 0
		}
		return FlagCF | FlagOF
	}
	return StatusMask
}

// pairUndefined returns the flags undefined after a then b: those a leaves
// undefined and b does not write, and those b leaves undefined.
func pairUndefined(a, b forms.Insn, s *State) uint64 {
	return undefinedFlags(a, s)&^writtenFlags(b, s) | undefinedFlags(b, s)
}
