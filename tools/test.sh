#!/usr/bin/env bash
# Runs every test of vg on the default code path (AVX2 where the CPU has
# it), then, on the baseline assembly (VG_CPU_FEATURES=none) and on pure Go,
# the tests of every package the path changes: those whose files differ
# under the path's build tag, and those whose tests link go/mldsa or go/asm.
# The other packages build the same way on every path, so a second run of
# theirs would repeat the first.
set -euo pipefail
cd "$(dirname "$0")/.."
export VG_VECTORS="${VG_VECTORS:-$(cd .. && pwd)/shared/vectors}"

# pathpkgs TAG lists the packages whose tests depend on the build tag TAG.
pathpkgs() {
	local files='{{.ImportPath}} {{.GoFiles}}{{.CgoFiles}}{{.SFiles}}{{.TestGoFiles}}{{.XTestGoFiles}}'
	{
		comm -3 <(go list -f "$files" ./... | sort) <(go list -tags "$1" -f "$files" ./... | sort) | awk '{print $1}'
		go list -tags "$1" -test -f '{{if .ForTest}}{{.ForTest}} {{join .Deps " "}}{{end}}' ./... |
			grep -E ' github.com/vg-crypto/vg/go/(mldsa|asm)( |$)' | awk '{print $1}'
	} | sort -u
}

echo "-- path: default"
go test -count=1 ./... ./Emit/...
echo "-- path: baseline assembly (VG_CPU_FEATURES=none)"
pkgs=$(pathpkgs cpu_features_env)
echo "$pkgs"
[ -n "$pkgs" ] || { echo "no package depends on the path: go list failed?"; exit 1; }
VG_CPU_FEATURES=none go test -count=1 -tags cpu_features_env $pkgs
echo "-- path: pure Go (-tags purego)"
pkgs=$(pathpkgs purego)
echo "$pkgs"
[ -n "$pkgs" ] || { echo "no package depends on the path: go list failed?"; exit 1; }
go test -count=1 -tags purego $pkgs
