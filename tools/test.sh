#!/usr/bin/env bash
# Runs every test of vg on every code path: the default (AVX2 where the CPU
# has it), the baseline assembly (VG_CPU_FEATURES=none) and pure Go.
set -euo pipefail
cd "$(dirname "$0")/.."
export VG_VECTORS="${VG_VECTORS:-$(cd .. && pwd)/shared/vectors}"

echo "-- path: default"
go test -count=1 ./... ./Emit/...
echo "-- path: baseline assembly (VG_CPU_FEATURES=none)"
VG_CPU_FEATURES=none go test -count=1 -tags cpu_features_env ./...
echo "-- path: pure Go (-tags purego)"
go test -count=1 -tags purego ./...
