package main

import (
	"strings"
	"testing"
)

func TestParseBenchOutput(t *testing.T) {
	out := `=== RUN   TestImplementationLine
    implementation_line_test.go:8: implementation: AVX2
--- PASS: TestImplementationLine (0.00s)
goos: linux
BenchmarkExpandA/ML-DSA-44-2         	    4123	     30812 ns/op
BenchmarkSign/ML-DSA-65-2            	     100	    889612.5 ns/op	    4096 B/op	       2 allocs/op
BenchmarkVerifyParsed/ML-DSA-65-2    	     100	     50000 ns/op
PASS
`
	res, err := parseBenchOutput([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"ExpandA/ML-DSA-44": 30812, "Sign/ML-DSA-65": 889612.5, "VerifyParsed/ML-DSA-65": 50000}
	if len(res) != len(want) {
		t.Fatalf("got %v, want %v", res, want)
	}
	for k, v := range want {
		if res[k] != v {
			t.Errorf("%s = %v, want %v", k, res[k], v)
		}
	}
	if got := implementationLine([]byte(out)); got != "AVX2" {
		t.Errorf("implementationLine = %q", got)
	}
	if _, err := parseBenchOutput([]byte("PASS\n")); err == nil || !strings.Contains(err.Error(), "no benchmark") {
		t.Errorf("output without results: err = %v", err)
	}
}
