package x86

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// makeHintWrapper is the toolchain's ABI wrapper of MakeHint32AMD64 as
// linked at 0x4ff480, its body at 0x4be060 (objdump of a program
// importing go/asm).
var makeHintWrapper = []byte{
	0x55,             // PUSHQ BP
	0x48, 0x89, 0xe5, // MOVQ SP, BP
	0x48, 0x83, 0xec, 0x20, // SUBQ $0x20, SP
	0x48, 0x89, 0x04, 0x24, // MOVQ AX, (SP)
	0x48, 0x89, 0x5c, 0x24, 0x08, // MOVQ BX, 8(SP)
	0x48, 0x89, 0x4c, 0x24, 0x10, // MOVQ CX, 16(SP)
	0x48, 0x89, 0x7c, 0x24, 0x18, // MOVQ DI, 24(SP)
	0x0f, 0x1f, 0x44, 0x00, 0x00, // NOP
	0xe8, 0xbb, 0xeb, 0xfb, 0xff, // CALL 0x4be060
	0x45, 0x0f, 0x57, 0xff, // XORPS X15, X15
	0x64, 0x4c, 0x8b, 0x34, 0x25, 0xf8, 0xff, 0xff, 0xff, // MOVQ (TLS), R14
	0x0f, 0xb6, 0x44, 0x24, 0x10, // MOVZBL 16(SP), AX (a result)
	0x48, 0x83, 0xc4, 0x20, // ADDQ $0x20, SP
	0x5d, // POPQ BP
	0xc3, // RET
}

const (
	wrapAddr   = 0x4ff480
	wrapTarget = 0x4be060
)

func TestCheckWrapper(t *testing.T) {
	if err := checkWrapper(makeHintWrapper, wrapAddr, wrapTarget); err != nil {
		t.Fatalf("the toolchain's wrapper: %v", err)
	}
	at := func(marker []byte) int {
		i := bytes.Index(makeHintWrapper, marker)
		if i < 0 {
			t.Fatalf("marker % x not found", marker)
		}
		return i
	}
	insert := func(marker, code []byte) []byte {
		i := at(marker)
		out := append(append(append([]byte{}, makeHintWrapper[:i]...), code...), makeHintWrapper[i:]...)
		// Keep the CALL's target where the insertion moved it.
		c := bytes.Index(out, []byte{0xe8})
		for c >= 0 && c+5 <= len(out) {
			if binary.LittleEndian.Uint32(out[c+1:]) == binary.LittleEndian.Uint32(makeHintWrapper[at([]byte{0xe8, 0xbb})+1:]) {
				break
			}
			c = bytes.Index(out[c+1:], []byte{0xe8}) + c + 1
		}
		if c < at([]byte{0xe8, 0xbb}) || !bytes.Equal(out[c:c+1], []byte{0xe8}) {
			return out
		}
		rel := int32(int64(wrapTarget) - int64(wrapAddr) - int64(c) - 5)
		binary.LittleEndian.PutUint32(out[c+1:], uint32(rel))
		return out
	}
	xorps := []byte{0x45, 0x0f, 0x57, 0xff}
	ret := []byte{0x5d, 0xc3}
	cases := map[string][]byte{
		"a store through AX":        insert(xorps, []byte{0x48, 0x89, 0x30}),             // MOVQ SI, (AX)
		"a flip of the state":       insert(ret, []byte{0x48, 0x83, 0x30, 0x01}),         // XORQ $1, (AX)
		"a store of R12":            insert(xorps, []byte{0x4c, 0x89, 0x64, 0x24, 0x08}), // MOVQ R12, 8(SP)
		"a store above the frame":   insert(xorps, []byte{0x48, 0x89, 0x5c, 0x24, 0x28}), // MOVQ BX, 40(SP)
		"a store below SP":          insert(xorps, []byte{0x48, 0x89, 0x5c, 0x24, 0xf8}), // MOVQ BX, -8(SP)
		"an indexed store":          insert(xorps, []byte{0x4a, 0x89, 0x1c, 0x24}),       // REX.X
		"a second CALL":             insert(ret, []byte{0xe8, 0, 0, 0, 0}),
		"bytes after RET":           append(append([]byte{}, makeHintWrapper...), 0x90),
		"no XORPS X15":              bytes.Replace(makeHintWrapper, xorps, nil, 1),
		"ADDQ of another frame":     bytes.Replace(makeHintWrapper, []byte{0x48, 0x83, 0xc4, 0x20}, []byte{0x48, 0x83, 0xc4, 0x18}, 1),
		"a jump":                    insert(ret, []byte{0xeb, 0x00}),
		"a CALL of something else":  bytes.Replace(makeHintWrapper, []byte{0xe8, 0xbb}, []byte{0xe8, 0xbc}, 1),
		"no frame pointer restored": bytes.Replace(makeHintWrapper, ret, []byte{0xc3}, 1),
	}
	for name, code := range cases {
		if err := checkWrapper(code, wrapAddr, wrapTarget); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
