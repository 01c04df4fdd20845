// Command check_mcdt enforces the MCDT rule of DESIGN.md on the generated
// assembly: on some Intel processors the instructions Spec/x86 marks MCDT
// (today pmuludq/vpmuludq, Go: PMULULQ, VPMULUDQ) take data-dependent time
// unless MXCSR holds 0x1FBF, so every such instruction must lie between
// Intel's prologue
//
//	STMXCSR save; LDMXCSR <0x1FBF>; LFENCE
//
// and epilogue
//
//	LFENCE; LDMXCSR save
//
// in the same routine. It also rejects what would let control skip either
// half: a RET or the routine's end inside the region, and jumps across its
// borders. The 0x1FBF operand must visibly hold 0x1FBF: a DATA symbol of
// that value, or a memory operand the routine last wrote with MOVL $0x1FBF.
//
// Usage, from the repository root: go run ./tools/checks/check_mcdt [-root dir] [-dir go/asm]
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/vg-crypto/vg/Spec/x86"
	"github.com/vg-crypto/vg/tools/checks/internal/asmfile"
	"github.com/vg-crypto/vg/tools/checks/internal/diag"
	"github.com/vg-crypto/vg/tools/checks/internal/repo"
)

func main() {
	root := flag.String("root", ".", "repository root")
	dir := flag.String("dir", "go/asm", "directory of the generated assembly, relative to the root")
	flag.Parse()
	l, summary, err := run(*root, *dir)
	diag.Exit("check_mcdt", l, summary, err)
}

// mxcsrDOIT is the MXCSR value of Intel's MCDT guidance: every exception
// masked (bits 7-12) and every exception flag already set (bits 0-5), round
// to nearest, DAZ and FTZ off.
const mxcsrDOIT = 0x1FBF

// guarded reports whether the rule covers an instruction: the model
// (Spec/x86) records which instructions Intel lists as MXCSR-configuration
// dependent.
func guarded(op string) bool {
	inf, ok := x86.Lookup(op)
	return ok && inf.MCDT
}

func run(root, dir string) (diag.List, string, error) {
	r, err := repo.Open(root)
	if err != nil {
		return nil, "", err
	}
	files, err := r.Files(dir, ".s")
	if err != nil {
		return nil, "", err
	}
	var l diag.List
	nRoutines, nMul := 0, 0
	for _, rel := range files {
		f, err := asmfile.Parse(r.Abs(rel), rel)
		if err != nil {
			return nil, "", err
		}
		for _, rt := range f.Routines {
			nRoutines++
			nMul += checkRoutine(&l, rt, f.Data)
		}
	}
	return l, fmt.Sprintf("%d multiplications covered in %d routines of %d files", nMul, nRoutines, len(files)), nil
}

// dataConst returns the 4-byte little-endian value a DATA symbol holds at
// the memory operand o, if o names one.
func dataConst(data map[string]*x86.Data, o x86.Operand) (uint64, bool) {
	if o.Kind != x86.KMem || o.Mem.Pseudo != "SB" {
		return 0, false
	}
	d := data[o.Mem.Name]
	if d == nil || o.Mem.Disp < 0 || o.Mem.Disp+4 > int64(len(d.Bytes)) {
		return 0, false
	}
	return uint64(binary.LittleEndian.Uint32(d.Bytes[o.Mem.Disp:])), true
}

// imm parses "$0x1fbf", "$8127".
func imm(s string) (uint64, bool) {
	s, ok := strings.CutPrefix(strings.TrimSpace(s), "$")
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 0, 64)
	return v, err == nil
}

// States of the scan.
const (
	outside = iota
	saved   // STMXCSR done
	loaded  // LDMXCSR 0x1FBF done, LFENCE must follow
	inside  // prologue complete
	leaving // LFENCE of the epilogue done, LDMXCSR save must follow
)

func checkRoutine(l *diag.List, rt *x86.Routine, data map[string]*x86.Data) int {
	state, save := outside, ""
	pre := make([]int, len(rt.Insns)) // state before each instruction
	nMul := 0
	lastMOVL := map[string]string{} // memory operand -> immediate last stored by MOVL
	for i, in := range rt.Insns {
		pre[i] = state
		args := make([]string, len(in.Args))
		for k, a := range in.Args {
			args[k] = a.Text
		}
		switch state {
		case loaded:
			if in.Op != "LFENCE" {
				l.Addf(rt.File, in.Line, "%s: LDMXCSR of the prologue must be followed by LFENCE, found %s", rt.Name, in.Op)
			}
			state = inside
			if in.Op == "LFENCE" {
				continue
			}
		case leaving:
			if in.Op != "LDMXCSR" || len(args) != 1 || args[0] != save {
				l.Addf(rt.File, in.Line, "%s: LFENCE of the epilogue must be followed by LDMXCSR %s, found %s", rt.Name, save, in.Text)
				state = inside
				continue
			} else {
				state, save = outside, ""
				continue
			}
		}
		switch {
		case guarded(in.Op):
			nMul++
			if state != inside {
				l.Addf(rt.File, in.Line, "%s: %s outside the MXCSR prologue (STMXCSR, LDMXCSR $0x1FBF, LFENCE) and epilogue (LFENCE, LDMXCSR)", rt.Name, in.Op)
			}
		case in.Op == "STMXCSR" && len(args) == 1:
			if state == outside {
				state, save = saved, args[0]
			}
		case in.Op == "LDMXCSR" && len(args) == 1:
			if state == saved {
				v, ok := dataConst(data, in.Args[0])
				if !ok {
					v, ok = imm(lastMOVL[args[0]])
				}
				if !ok || v != mxcsrDOIT {
					l.Addf(rt.File, in.Line, "%s: LDMXCSR %s: cannot see that it loads 0x%X", rt.Name, args[0], mxcsrDOIT)
				}
				state = loaded
			} else if state == inside {
				l.Addf(rt.File, in.Line, "%s: LDMXCSR inside the MXCSR region without the epilogue's LFENCE before it", rt.Name)
			}
		case in.Op == "LFENCE" && state == inside:
			if i+1 < len(rt.Insns) && rt.Insns[i+1].Op == "LDMXCSR" {
				state = leaving
			}
		case in.Op == "RET":
			if state != outside {
				l.Addf(rt.File, in.Line, "%s: RET before the MXCSR epilogue (LFENCE, LDMXCSR %s)", rt.Name, save)
			}
		}
		if len(args) > 0 && state != outside && args[len(args)-1] == save && writes(in.Op) {
			l.Addf(rt.File, in.Line, "%s: %s overwrites %s, where the prologue saved MXCSR", rt.Name, in.Op, save)
		}
		if len(args) == 2 && in.Op == "MOVL" {
			lastMOVL[args[1]] = args[0]
		} else if len(args) > 0 {
			delete(lastMOVL, args[len(args)-1])
		}
	}
	if last := len(rt.Insns) - 1; last >= 0 && state != outside && rt.Insns[last].Op != "RET" {
		last := rt.Insns[last]
		l.Addf(rt.File, last.Line, "%s: routine ends before the MXCSR epilogue", rt.Name)
	}
	// Jumps must not cross the region's borders: a jump into it skips the
	// prologue, a jump out of it skips the epilogue.
	for i, in := range rt.Insns {
		if !strings.HasPrefix(in.Op, "J") || len(in.Args) != 1 || in.Args[0].Kind != x86.KLabel {
			continue
		}
		j, ok := rt.Labels[in.Args[0].Label]
		if !ok {
			continue
		}
		from := post(pre, i)
		to := outside
		if j < len(pre) {
			to = pre[j]
		}
		if (from == inside) != (to == inside) || (from == outside) != (to == outside) {
			l.Addf(rt.File, in.Line, "%s: %s %s jumps across the border of the MXCSR region", rt.Name, in.Op, in.Args[0].Label)
		}
	}
	return nMul
}

// writes reports whether op may write its last operand (Go assembly puts
// the destination last).
func writes(op string) bool {
	for _, p := range []string{"CMP", "TEST", "J", "LDMXCSR", "STMXCSR", "PUSH", "BT", "PREFETCH"} {
		if strings.HasPrefix(op, p) {
			return false
		}
	}
	return true
}

// post is the state after instruction i as the linear scan saw it.
func post(pre []int, i int) int {
	if i+1 < len(pre) {
		return pre[i+1]
	}
	return pre[i]
}
