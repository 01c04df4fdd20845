#!/usr/bin/env bash
# Runs the tests of go/mldsa and cmd/vg, vectors included, on arm64 and on
# big-endian s390x under qemu-user (Debian's qemu-user package). There the
# library is pure Go, as on every architecture but amd64; vg prove still
# builds go/asm for amd64 with the host's go command and checks it in the
# model, now running on the emulated CPU.
#
# Each test binary is built with GOARCH=... go test -c (statically linked,
# so the emulator needs no sysroot) and run from its package directory, as
# go test would, so paths relative to it (the source tree, ../shared/vectors)
# resolve; VG_VECTORS is made absolute and CI=true makes missing vectors a
# failure, not a skip. cmd/vg runs with -short: it skips TestProveWithoutZ3,
# a second vg prove run that the amd64 tests already make. On the shared
# 2-core machine the whole script took 441 s: 36 s and 98 s for go/mldsa
# and cmd/vg on arm64, 53 s and 91 s on s390x, the rest building.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
VG_VECTORS="${VG_VECTORS:-$(cd .. && pwd)/shared/vectors}"
VG_VECTORS=$(cd "$VG_VECTORS" && pwd)
export VG_VECTORS CI=true
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

# arch GOARCH QEMU
for arch in arm64:qemu-aarch64 s390x:qemu-s390x; do
	goarch=${arch%%:*} emu=${arch#*:}
	command -v "$emu" >/dev/null || { echo "$emu not on PATH (apt-get install qemu-user)"; exit 1; }
	for pkg in go/mldsa cmd/vg; do
		flags=()
		[ "$pkg" = cmd/vg ] && flags=(-test.short)
		test="$bin/$(basename "$pkg").$goarch.test"
		GOARCH=$goarch CGO_ENABLED=0 go test -c -o "$test" "./$pkg"
		start=$(date +%s)
		echo "-- $pkg on $goarch ($emu${flags:+, ${flags[*]}})"
		(cd "$root/$pkg" && "$emu" "$test" -test.count=1 "${flags[@]}")
		echo "   $(( $(date +%s) - start )) s"
	done
done
