#!/usr/bin/env bash
# Runs every fuzz target for a fixed time (FUZZTIME, default 10s) and fails
# unless each made progress: at least FUZZMIN executions (default 500).
# -fuzzminimizetime 50x caps the minimizing of each new input, which
# otherwise takes the whole run for inputs kilobytes long. The fuzzing runs
# on Go 1.27.3: Go 1.26's fuzzing coordinator can end a -fuzztime run with
# a spurious "context deadline exceeded" failure and no input
# (go.dev/issue/75804, fixed in Go 1.27).
set -euo pipefail
cd "$(dirname "$0")/.."
export VG_VECTORS="${VG_VECTORS:-$(cd .. && pwd)/shared/vectors}"
FUZZTIME="${FUZZTIME:-10s}"
FUZZMIN="${FUZZMIN:-500}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# fuzz DIR PKG TARGET [go test flags...]
fuzz() {
	local dir=$1 pkg=$2 target=$3
	shift 3
	if ! (cd "$dir" && GOTOOLCHAIN=go1.27.3 go test "$@" -run '^$' -fuzz "^$target\$" -fuzztime "$FUZZTIME" -fuzzminimizetime 50x "$pkg") >"$log" 2>&1; then
		cat "$log"
		echo "FAIL: $target ($dir $pkg $*)"
		exit 1
	fi
	local execs
	# No "execs:" line means the run never got past its seed corpus: that is
	# a failure to report, not a reason for pipefail to end the script mute.
	execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
	echo "$target ($dir $pkg $*): ${execs:-0} executions in $FUZZTIME"
	if [ "${execs:-0}" -lt "$FUZZMIN" ]; then
		cat "$log"
		echo "FAIL: $target made fewer than $FUZZMIN executions"
		exit 1
	fi
}

fuzz . ./go/mldsa FuzzNewPublicKeyVerify
fuzz . ./go/mldsa FuzzNewPrivateKeyFromExpanded
fuzz . ./go/mldsa FuzzParsePKCS8PrivateKey
fuzz . ./go/mldsa FuzzParsePKIXPublicKey
fuzz . ./cmd/vg FuzzParse

# Differential targets (bench/, its own module): vg on each code path
# against filippo.io/mldsa, circl and Spec/fips204.
for target in FuzzNewPublicKey FuzzVerify FuzzHashVerify FuzzNewPrivateKeyFromExpanded; do
	fuzz bench . "$target"
	VG_CPU_FEATURES=none fuzz bench . "$target" -tags cpu_features_env
	fuzz bench . "$target" -tags purego
done
