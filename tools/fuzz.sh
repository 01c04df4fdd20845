#!/usr/bin/env bash
# Runs every fuzz target for a fixed time (FUZZTIME, default 10s) and fails
# unless each made progress: at least FUZZMIN executions (default 1000).
# -fuzzminimizetime 50x caps the minimizing of each new input, which
# otherwise takes the whole run for inputs kilobytes long.
set -euo pipefail
cd "$(dirname "$0")/.."
export VG_VECTORS="${VG_VECTORS:-$(cd .. && pwd)/shared/vectors}"
FUZZTIME="${FUZZTIME:-10s}"
FUZZMIN="${FUZZMIN:-1000}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# fuzz DIR PKG TARGET [go test flags...]
fuzz() {
	local dir=$1 pkg=$2 target=$3
	shift 3
	if ! (cd "$dir" && go test "$@" -run '^$' -fuzz "^$target\$" -fuzztime "$FUZZTIME" -fuzzminimizetime 50x "$pkg") >"$log" 2>&1; then
		cat "$log"
		echo "FAIL: $target ($dir $pkg $*)"
		exit 1
	fi
	local execs
	execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	echo "$target ($dir $pkg $*): ${execs:-0} executions in $FUZZTIME"
	if [ "${execs:-0}" -lt "$FUZZMIN" ]; then
		cat "$log"
		echo "FAIL: $target made fewer than $FUZZMIN executions"
		exit 1
	fi
}

fuzz . ./go/mldsa FuzzNewPublicKeyVerify
fuzz . ./go/mldsa FuzzNewPrivateKeyFromExpanded
fuzz . ./cmd/vg FuzzParse
