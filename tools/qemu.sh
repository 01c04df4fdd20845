#!/usr/bin/env bash
# Runs the tests of go/mldsa and cmd/vg, vectors included, on arm64 and on
# big-endian s390x under qemu-user (Debian's qemu-user package). There the
# library is pure Go, as on every architecture but amd64.
#
# Each test binary is built with GOARCH=... go test -c (statically linked,
# so the emulator needs no sysroot) and run from its package directory, as
# go test would, so paths relative to it (the source tree, ../shared/vectors)
# resolve; VG_VECTORS is made absolute and CI=true makes missing vectors a
# failure, not a skip. cmd/vg runs with -short and without its TestProve*
# tests: those build go/asm for amd64 and run the checker, several minutes
# each under emulation, and the amd64 runs of tools/test.sh make them;
# what the emulated runs are for is the library and the commands users
# run (keygen, sign, verify, pub, bench), vectors included.
#
# QEMU_SHORT=1 (CI's setting) runs go/mldsa with -short too: every vector
# still, the exhaustive coefficient-map tests on every seventh value and
# fewer random runs; the amd64 pure-Go run of tools/test.sh makes the
# exhaustive ones in full.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
VG_VECTORS="${VG_VECTORS:-$(cd .. && pwd)/shared/vectors}"
VG_VECTORS=$(cd "$VG_VECTORS" && pwd)
export VG_VECTORS CI=true
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT

# run ARCH:EMU builds and runs both packages for one architecture; the two
# architectures run side by side (one emulator each, on two cores), each
# with its own log, printed in order when both are done.
run() {
	local goarch=${1%%:*} emu=${1#*:}
	command -v "$emu" >/dev/null || { echo "$emu not on PATH (apt-get install qemu-user)"; return 1; }
	for pkg in go/mldsa cmd/vg; do
		local flags=()
		[ "$pkg" = cmd/vg ] && flags=(-test.short -test.skip '^TestProve')
		[ "$pkg" = go/mldsa ] && [ "${QEMU_SHORT:-}" = 1 ] && flags=(-test.short)
		local test="$bin/$(basename "$pkg").$goarch.test"
		GOARCH=$goarch CGO_ENABLED=0 go test -c -o "$test" "./$pkg"
		local start=$(date +%s)
		echo "-- $pkg on $goarch ($emu${flags:+, ${flags[*]}})"
		(cd "$root/$pkg" && "$emu" "$test" -test.count=1 "${flags[@]}")
		echo "   $(( $(date +%s) - start )) s"
	done
}

pids=()
for arch in arm64:qemu-aarch64 s390x:qemu-s390x; do
	run "$arch" >"$bin/${arch%%:*}.log" 2>&1 &
	pids+=($!)
done
status=0
for i in 0 1; do
	wait "${pids[$i]}" || status=1
done
cat "$bin/arm64.log" "$bin/s390x.log"
exit $status
