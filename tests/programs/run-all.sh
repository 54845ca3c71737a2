#!/usr/bin/env bash
# Record every test program of this folder with warpline, one trace and one log per program.
#
# usage: run-all.sh WARPLINE_RUN_SH OUTDIR [NAME...]
#
#   WARPLINE_RUN_SH  launcher such that `$WARPLINE_RUN_SH warpline record -o F.json.gz -- python3 prog.py args`
#                    works (a path; a relative path is taken from the directory run-all.sh is called in)
#   OUTDIR           where <name>.json.gz and <name>.log go (created if missing)
#   NAME...          optional: run only these programs (names as in the table below)
#
# Environment:
#   PYTHONPATH       must already hold a folder with an `nvtx` module where the `nvtx` package is
#                    missing; run-all.sh only warns if `import nvtx` fails.
#   PROGRAM_TIMEOUT  seconds allowed per program (default 300; 0 = no limit). Needs `timeout`.
#
# Runs every program even after a failure, then prints one summary line per program
# (exit code, seconds, trace size) and exits 1 if any program failed.

set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 WARPLINE_RUN_SH OUTDIR [NAME...]" >&2
    exit 2
fi

RUN_SH=$1
OUTDIR=$2
shift 2

# Resolve paths before changing directory.
case "$RUN_SH" in
    /*) ;;
    */*) RUN_SH="$(cd "$(dirname "$RUN_SH")" && pwd)/$(basename "$RUN_SH")" ;;
    *) if [ -e "$RUN_SH" ]; then RUN_SH="$PWD/$RUN_SH"; fi ;;  # else: a command found on PATH
esac
mkdir -p "$OUTDIR" || exit 2
OUTDIR="$(cd "$OUTDIR" && pwd)"

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE" || exit 2

export PYTHONUNBUFFERED=1
PROGRAM_TIMEOUT=${PROGRAM_TIMEOUT:-300}

# name | program and arguments
PROGRAMS=(
    "run_v1|run_v1.py"
    "run_v2|run_v2.py"
    "run_v3_bug_s4|run_v3_bug.py -s 4"
    "run_v3_s1|run_v3.py -s 1"
    "run_v3_s8|run_v3.py -s 8"
    "power_baseline|power_baseline.py"
    "power_async|power_async.py"
    "torch_train|torch_train.py"
    "streams_events|streams_events.py"
)

if ! python3 -c 'import nvtx' >/dev/null 2>&1; then
    echo "run-all.sh: warning: 'import nvtx' fails with PYTHONPATH=${PYTHONPATH:-<unset>};" \
         "put a folder with an nvtx module on PYTHONPATH" >&2
fi

TIMEOUT_CMD=()
if [ "$PROGRAM_TIMEOUT" != 0 ]; then
    if command -v timeout >/dev/null 2>&1; then
        TIMEOUT_CMD=(timeout --kill-after=30 "$PROGRAM_TIMEOUT")
    else
        echo "run-all.sh: warning: no 'timeout' command, programs run without a time limit" >&2
    fi
fi

now_ms() { date +%s%3N; }

wanted() {
    [ $# -eq 1 ] && return 0
    local name=$1; shift
    for w in "$@"; do [ "$w" = "$name" ] && return 0; done
    return 1
}

SUMMARY=()
FAILED=0
for entry in "${PROGRAMS[@]}"; do
    name=${entry%%|*}
    cmdline=${entry#*|}
    wanted "$name" "$@" || continue
    read -r -a prog <<<"$cmdline"
    trace="$OUTDIR/$name.json.gz"
    log="$OUTDIR/$name.log"
    rm -f "$trace"

    echo "=== $name: $RUN_SH warpline record -o $trace -- python3 $cmdline"
    t0=$(now_ms)
    ${TIMEOUT_CMD[@]+"${TIMEOUT_CMD[@]}"} "$RUN_SH" warpline record -o "$trace" -- python3 "${prog[@]}" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    t1=$(now_ms)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1000 }')
    if [ -f "$trace" ]; then
        size="$(stat -c %s "$trace") bytes"
    else
        size="missing"
    fi
    [ "$rc" -ne 0 ] && FAILED=1
    line=$(printf '%-16s exit=%-3s %7ss  trace=%s' "$name" "$rc" "$secs" "$size")
    echo "=== $line"
    SUMMARY+=("$line")
done

if [ ${#SUMMARY[@]} -eq 0 ]; then
    echo "run-all.sh: no program matched: $*" >&2
    exit 2
fi
echo
echo "=== summary ($OUTDIR)"
for line in "${SUMMARY[@]}"; do echo "$line"; done
exit $FAILED
