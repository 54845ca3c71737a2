#!/usr/bin/env bash
# What recording unified memory costs: `warpline record` of a program that uses managed memory
# (managed_memory: 64 MiB filled on the host, a kernel over it without and with a prefetch) and of
# one that uses none (graph_relaunch: 2000 relaunches of a CUDA graph), each with the unified-
# memory options off and on, ROUNDS times (default 5); prints the median wall time of each and its
# ratio to the same program recorded with every unified-memory option off. The programs run as
# the GPU tests build them (tests/CMakeLists.txt: targets managed_memory, graph_relaunch).
#
# Usage: scripts/bench-unified-memory.sh WARPLINE_LAUNCHER OUTDIR
#   WARPLINE_LAUNCHER  how to start warpline (a path, or a launcher command in quotes)
#   OUTDIR             a folder for the traces and the raw times (times.tsv)
# Environment: ROUNDS (5), PROGRAMS_DIR (the build's tests folder: build/ci/tests), MIB (64).
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
warpline=$1
outdir=$2
rounds=${ROUNDS:-5}
here=$(cd "$(dirname "$0")" && pwd)
programs=${PROGRAMS_DIR:-$here/../build/ci/tests}
mib=${MIB:-64}
for program in managed_memory graph_relaunch; do
    [ -x "$programs/$program" ] || {
        echo "bench-unified-memory: no $programs/$program (build it, or set PROGRAMS_DIR)" >&2
        exit 2
    }
done
mkdir -p "$outdir"
times="$outdir/times.tsv"
: >"$times"

# Configurations: a name and record's options. "um off" is what the others are compared with;
# "default" is record without options (all off).
configs=(
    "none|"
    "um off|--cuda-um-migrations=false"
    "default|"
    "migrations|--cuda-um-migrations=true"
    "gpu faults|--cuda-um-gpu-page-faults=true"
    "cpu faults|--cuda-um-cpu-page-faults=true"
    "all|--cuda-um-gpu-page-faults=true --cuda-um-cpu-page-faults=true"
)
declare -A command=(
    [managed_memory]="$programs/managed_memory --mib $mib"
    [graph_relaunch]="$programs/graph_relaunch"
)

now_ns() { date +%s%N; }

# Rounds interleave the configurations, so that a machine's drift touches each alike.
for round in $(seq "$rounds"); do
    for program in managed_memory graph_relaunch; do
        for config in "${configs[@]}"; do
            name=${config%%|*}
            options=${config#*|}
            trace="$outdir/${program}-${name// /_}-$round.json.gz"
            start=$(now_ns)
            if [ "$name" = none ]; then
                # The program alone, not recorded.
                ${command[$program]} >/dev/null 2>>"$outdir/stderr.log"
            else
                # shellcheck disable=SC2086  # the launcher and the options are word lists
                $warpline record -f $options -o "$trace" -- ${command[$program]} \
                    >/dev/null 2>>"$outdir/stderr.log"
            fi
            end=$(now_ns)
            printf '%s\t%s\t%s\t%s\n' "$program" "$name" "$round" "$(((end - start) / 1000))" >>"$times"
        done
    done
done

# Medians (µs) per program and configuration, and the ratio to "um off".
median() {
    awk -F'\t' -v p="$1" -v n="$2" '$1 == p && $2 == n { print $4 }' "$times" | sort -n |
        awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
base_mm=$(median managed_memory "um off")
base_gr=$(median graph_relaunch "um off")
printf '%-22s %17s %7s %17s %7s\n' configuration "managed_memory s" ratio "graph_relaunch s" ratio
for config in "${configs[@]}"; do
    name=${config%%|*}
    mm=$(median managed_memory "$name")
    gr=$(median graph_relaunch "$name")
    awk -v n="$name" -v mm="$mm" -v gr="$gr" -v bm="$base_mm" -v bg="$base_gr" \
        'BEGIN { printf "%-22s %17.3f %7.2f %17.3f %7.2f\n", n, mm / 1e6, mm / bm, gr / 1e6, gr / bg }'
done
echo "(median of $rounds rounds; ratio: to the same program recorded with the unified-memory options off)"
if grep -q "are not recorded" "$outdir/stderr.log"; then
    echo "warning: CUPTI refused some unified-memory counters here (see $outdir/stderr.log)" >&2
fi
