package fips204

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// algorithms lists FIPS 204's algorithms by number, as its table of
// contents names them.
var algorithms = map[int]string{
	1: "ML-DSA.KeyGen", 2: "ML-DSA.Sign", 3: "ML-DSA.Verify",
	4: "HashML-DSA.Sign", 5: "HashML-DSA.Verify",
	6: "ML-DSA.KeyGen_internal", 7: "ML-DSA.Sign_internal", 8: "ML-DSA.Verify_internal",
	9: "IntegerToBits", 10: "BitsToInteger", 11: "IntegerToBytes", 12: "BitsToBytes",
	13: "BytesToBits", 14: "CoeffFromThreeBytes", 15: "CoeffFromHalfByte",
	16: "SimpleBitPack", 17: "BitPack", 18: "SimpleBitUnpack", 19: "BitUnpack",
	20: "HintBitPack", 21: "HintBitUnpack",
	22: "pkEncode", 23: "pkDecode", 24: "skEncode", 25: "skDecode",
	26: "sigEncode", 27: "sigDecode", 28: "w1Encode",
	29: "SampleInBall", 30: "RejNTTPoly", 31: "RejBoundedPoly",
	32: "ExpandA", 33: "ExpandS", 34: "ExpandMask",
	35: "Power2Round", 36: "Decompose", 37: "HighBits", 38: "LowBits",
	39: "MakeHint", 40: "UseHint", 41: "NTT", 42: "NTT⁻¹", 43: "BitRev8",
	44: "AddNTT", 45: "MultiplyNTT", 46: "AddVectorNTT", 47: "ScalarVectorNTT",
	48: "MatrixVectorNTT", 49: "MontgomeryReduce",
}

// goName is the Go name of the function implementing a FIPS 204 algorithm:
// the algorithm's own name, so that a citation can be followed to its code.
func goName(alg string) string {
	switch {
	case strings.HasPrefix(alg, "HashML-DSA."):
		alg = "HashMLDSA" + strings.TrimPrefix(alg, "HashML-DSA.")
	case strings.HasPrefix(alg, "ML-DSA."):
		alg = strings.TrimPrefix(alg, "ML-DSA.")
	}
	alg = strings.Replace(alg, "_internal", "Internal", 1)
	alg = strings.Replace(alg, "⁻¹", "Inverse", 1)
	return strings.ToUpper(alg[:1]) + alg[1:]
}

var (
	implementsRE = regexp.MustCompile(`It implements (\S+), according to FIPS 204, Algorithm (\d+)\.`)
	algorithmRE  = regexp.MustCompile(`Algorithms? (\d+)(?:\s*(?:–|-|and)\s*(\d+))?`)
	// namedRE finds "Name, Algorithm N" and "Name (Algorithm N": a name
	// right before a citation.
	namedRE = regexp.MustCompile(`([\pL\pN_.⁻¹-]+)(?:,| \() ?Algorithm (\d+)`)
)

// checkComment checks the citations in one comment's text: every number
// must be a FIPS 204 algorithm, and an algorithm's name right before a
// citation must be that algorithm's.
func checkComment(text string) []string {
	var errs []string
	for _, m := range algorithmRE.FindAllStringSubmatch(text, -1) {
		for _, s := range m[1:] {
			if s == "" {
				continue
			}
			if n, _ := strconv.Atoi(s); algorithms[n] == "" {
				errs = append(errs, fmt.Sprintf("%q cites no FIPS 204 algorithm", m[0]))
			}
		}
	}
	for _, m := range namedRE.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[2])
		for _, name := range algorithms {
			if (m[1] == name || m[1] == goName(name)) && algorithms[n] != name {
				errs = append(errs, fmt.Sprintf("%q: Algorithm %d is %s", m[0], n, algorithms[n]))
			}
		}
	}
	return errs
}

// TestCitations checks every "It implements X, according to FIPS 204,
// Algorithm N" doc comment: N must be X's number in FIPS 204 and the
// function must be named after X. Every "Algorithm N" anywhere in the
// package must name an existing algorithm, and every algorithm but
// MontgomeryReduce (an implementation technique the spec has no use for)
// must be implemented exactly once.
func TestCitations(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	implemented := map[int]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, cg := range f.Comments {
			for _, e := range checkComment(cg.Text()) {
				t.Errorf("%s: %s", fset.Position(cg.Pos()), e)
			}
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Doc == nil {
				continue
			}
			ms := implementsRE.FindAllStringSubmatch(fn.Doc.Text(), -1)
			if len(ms) > 1 {
				t.Errorf("%s: more than one \"It implements\"", fn.Name.Name)
			}
			for _, m := range ms {
				n, _ := strconv.Atoi(m[2])
				if algorithms[n] != m[1] {
					t.Errorf("%s: cites %s as Algorithm %d, which is %s", fn.Name.Name, m[1], n, algorithms[n])
				}
				if want := goName(m[1]); fn.Name.Name != want {
					t.Errorf("%s implements %s, so should be named %s", fn.Name.Name, m[1], want)
				}
				if prev, dup := implemented[n]; dup {
					t.Errorf("Algorithm %d implemented by both %s and %s", n, prev, fn.Name.Name)
				}
				implemented[n] = fn.Name.Name
			}
		}
	}
	for n, name := range algorithms {
		if _, ok := implemented[n]; !ok && name != "MontgomeryReduce" {
			t.Errorf("Algorithm %d (%s) has no function citing it", n, name)
		}
	}
}

// TestCitationsCatchSlips plants wrong citations to show the check fails.
func TestCitationsCatchSlips(t *testing.T) {
	for _, c := range []struct{ doc, fn string }{
		{"It implements NTT, according to FIPS 204, Algorithm 42.", "NTT"},
		{"It implements ExpandA, according to FIPS 204, Algorithm 32.", "ExpandS"},
	} {
		m := implementsRE.FindStringSubmatch(c.doc)
		n, _ := strconv.Atoi(m[2])
		if algorithms[n] == m[1] && goName(m[1]) == c.fn {
			t.Errorf("slip %q on %s not caught", c.doc, c.fn)
		}
	}
	for _, slip := range []string{
		"the seed of RejNTTPoly (ExpandA, Algorithm 33, line 4)",
		"as RejBoundedPoly (Algorithm 30) samples",
		"Algorithms 29–50",
		"see Algorithm 0",
	} {
		if len(checkComment(slip)) == 0 {
			t.Errorf("slip %q not caught", slip)
		}
	}
	for _, fine := range []string{
		"the seed ρ′ = ρ ‖ s ‖ r (ExpandA, Algorithm 32, line 4)",
		"[−η, η] (Algorithm 33 via Algorithm 15)",
		"Algorithms 29–31",
		"is ⊥ (Algorithm 2, line 1)",
	} {
		if errs := checkComment(fine); len(errs) > 0 {
			t.Errorf("correct citation %q flagged: %v", fine, errs)
		}
	}
	if goName("ML-DSA.Sign_internal") != "SignInternal" || goName("NTT⁻¹") != "NTTInverse" ||
		goName("HashML-DSA.Verify") != "HashMLDSAVerify" || goName("w1Encode") != "W1Encode" {
		t.Error("goName maps names wrongly")
	}
}
