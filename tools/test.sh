#!/usr/bin/env bash
# Runs every test of vg on the default code path (AVX-512 where the CPU has
# AVX512F and AVX512VL, else AVX2 where it has that), then, on the AVX2 path
# where the default was AVX-512 (VG_CPU_FEATURES=avx2), on the baseline
# assembly (VG_CPU_FEATURES=none) and on pure Go,
# the tests of every package the path changes: those whose files differ
# under the path's build tag, and those whose tests link what the tag
# changes: go/mldsa, which picks its path at start-up (cpu_features_env),
# and, under purego, go/asm too, which is then empty. The other packages
# (the cosimulation, which runs go/asm's instruction forms on this CPU
# whatever the path) build and run the same way on every path, so a second
# run of theirs would repeat the first.
set -euo pipefail
cd "$(dirname "$0")/.."
export VG_VECTORS="${VG_VECTORS:-$(cd .. && pwd)/shared/vectors}"

# pathpkgs TAG PKGS lists the packages whose tests depend on the build tag
# TAG: their files differ under it, or their tests link a package of
# go/PKGS (an alternation: mldsa, or mldsa|asm).
pathpkgs() {
	local files='{{.ImportPath}} {{.GoFiles}}{{.CgoFiles}}{{.SFiles}}{{.TestGoFiles}}{{.XTestGoFiles}}'
	{
		comm -3 <(go list -f "$files" ./... | sort) <(go list -tags "$1" -f "$files" ./... | sort) | awk '{print $1}'
		go list -tags "$1" -test -f '{{if .ForTest}}{{.ForTest}} {{join .Deps " "}}{{end}}' ./... |
			grep -E " github.com/vg-crypto/vg/go/($2)( |$)" | awk '{print $1}'
	} | sort -u
}

echo "-- path: default"
go test -count=1 ./... ./Emit/...
echo "-- path: baseline assembly (VG_CPU_FEATURES=none)"
pkgs=$(pathpkgs cpu_features_env mldsa)
echo "$pkgs"
[ -n "$pkgs" ] || { echo "no package depends on the path: go list failed?"; exit 1; }
VG_CPU_FEATURES=none go test -count=1 -tags cpu_features_env $pkgs
if grep -qw avx512f /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo; then
	# The default path above was AVX-512 (TestDispatch fails otherwise).
	echo "-- path: AVX2 (VG_CPU_FEATURES=avx2)"
	VG_CPU_FEATURES=avx2 go test -count=1 -tags cpu_features_env $pkgs
else
	echo "-- path: AVX-512 not run: this CPU lacks AVX512F or AVX512VL; the default path was AVX2 or the baseline"
fi
echo "-- path: pure Go (-tags purego)"
pkgs=$(pathpkgs purego 'mldsa|asm')
echo "$pkgs"
[ -n "$pkgs" ] || { echo "no package depends on the path: go list failed?"; exit 1; }
go test -count=1 -tags purego $pkgs
