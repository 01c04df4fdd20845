package check

import (
	"math/bits"
	"os"
	"strings"
	"testing"

	"github.com/vg-crypto/vg/Spec/contract"
	"github.com/vg-crypto/vg/Spec/fips204"
	"github.com/vg-crypto/vg/Spec/x86"
)

// etaPacked is the contract of the η decoder sym with its postcondition
// stated as a Packed with a flag, whatever the contract says: word i is
// η − field i mod q (Algorithm 19, line 4), and the flag is 1 exactly when
// some field exceeds 2η.
func etaPacked(sym string, eta uint32) *contract.Contract {
	c := *contract.Lookup(sym)
	c.Packed = &contract.Packed{Words: "w", Bytes: "v", Width: bits.Len32(2 * eta), Flag: "bad",
		Map: func(z *[256]uint32) [256]uint32 {
			var w [256]uint32
			for i, x := range z {
				w[i] = (eta + fips204.Q - x) % fips204.Q
			}
			return w
		},
		Bad: func(z uint32) bool { return z > 2*eta }}
	return &c
}

// TestProvePackedFlag proves the η decoders, words and flag, and refuses
// edits of the flag that random encodings seldom meet: a bound off by one
// for one position of a block (field 5 unflagged) or one lane of the
// vector loop (field 5 unflagged at every eighth position of the first
// 192), field 6 alone unflagged at one position of a block, a good field
// flagged at one position of a block, and a position left out of the OR;
// and a Packed that leaves the flag out.
func TestProvePackedFlag(t *testing.T) {
	const file = "bitunpack_amd64.s"
	unflag6 := "\tSUBL DX, R11\n\tMOVL DX, R8\n\tXORL $0x00000006, R8\n\tMOVL R8, R9\n\tNOTL R9\n\tSUBL $0x00000001, R8\n\tANDL R9, R8\n\tNOTL R8\n\tANDL R8, R11\n"
	cases := []struct {
		name, sym string
		edit      []string
		wantErr   string
	}{
		{"BitUnpack3AMD64", "BitUnpack3AMD64", nil, ""},
		{"BitUnpack3AVX2", "BitUnpack3AVX2", nil, ""},
		{"BitUnpack4AMD64", "BitUnpack4AMD64", nil, ""},
		{"BitUnpack4AVX2", "BitUnpack4AVX2", nil, ""},
		{"bound off by one at one position", "BitUnpack3AMD64", []string{"MOVL $0x00000004, R11", "MOVL $0x00000005, R11"}, "bad as the OR"},
		{"field 6 alone unflagged at one position", "BitUnpack3AVX2", []string{"\tSUBL DX, R11\n", unflag6}, "bad as the OR"},
		{"good field flagged at one position", "BitUnpack4AMD64", []string{"MOVL $0x00000008, R11", "MOVL $0x00000007, R11"}, "bad as the OR"},
		{"bound off by one in one lane", "BitUnpack3AVX2", []string{"DATA bitUnpack3Consts<>+172(SB)/4, $0x00000004", "DATA bitUnpack3Consts<>+172(SB)/4, $0x00000005"}, "bad as the OR"},
		{"one position left out", "BitUnpack4AMD64", []string{"ORL  R11, R10", "ORL  R10, R10"}, "bad as the OR"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := parseGoAsm(t, file)
			if tc.edit != nil {
				f = mutateIn(t, file, tc.sym, tc.edit[0], tc.edit[1])
			}
			eta := uint32(2)
			if strings.HasPrefix(tc.sym, "BitUnpack4") {
				eta = 4
			}
			d, err := provePacked(f, f.Routine(tc.sym), etaPacked(tc.sym, eta), 1<<22)
			wantVerdict(t, d, err, tc.wantErr)
		})
	}
	t.Run("flag left out", func(t *testing.T) {
		f := parseGoAsm(t, file)
		c := etaPacked("BitUnpack3AMD64", 2)
		pk := *c.Packed
		pk.Flag = ""
		c.Packed = &pk
		d, err := provePacked(f, f.Routine("BitUnpack3AMD64"), c, 1<<22)
		wantVerdict(t, d, err, "buffer \"bad\" is writable")
	})
}

// mutateIn parses file with the first occurrence of find after symbol's
// TEXT line replaced.
func mutateIn(t *testing.T, file, symbol, find, replace string) *x86.File {
	t.Helper()
	src, err := os.ReadFile("../../go/asm/" + file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	at := strings.Index(s, "TEXT ·"+symbol+"(SB)")
	if at < 0 {
		t.Fatalf("%s: no TEXT %s", file, symbol)
	}
	k := strings.Index(s[at:], find)
	if k < 0 {
		t.Fatalf("%s: %q not found after TEXT %s", file, find, symbol)
	}
	s = s[:at+k] + replace + s[at+k+len(find):]
	f, err := x86.ParseFile(file, s)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
