#!/usr/bin/env bash
# Import benchmark: `warpline analyze` of each trace file, as a user runs it (load, parse, build
# the model, analyse, print), three times; prints the median wall time, the CPU time, the peak
# resident memory (MiB) and the rate over the file's JSON text (decompressed size for .gz).
# The figures in docs/PERFORMANCE.md ("Importing other tools' traces") come from this script.
#
# Usage: scripts/bench-import.sh WARPLINE FILE...
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
warpline=$1
shift
command -v /usr/bin/time >/dev/null || { echo "bench-import: needs /usr/bin/time (package time)" >&2; exit 2; }
printf '%-44s %9s %9s %9s %10s %9s\n' file "JSON MB" "wall s" "CPU s" "peak MiB" "MB/s"
for file in "$@"; do
    case "$file" in
        *.gz) bytes=$(gzip -dc "$file" | wc -c) ;;
        *) bytes=$(stat -c %s "$file") ;;
    esac
    runs=()
    for _ in 1 2 3; do
        out=$( { /usr/bin/time -f '%e %U %S %M' "$warpline" analyze "$file" >/dev/null; } 2>&1 | tail -1)
        runs+=("$out")
    done
    # The median run by wall time.
    median=$(printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p)
    read -r wall user sys rss_kb <<<"$median"
    awk -v f="$(basename "$file")" -v b="$bytes" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss_kb" \
        'BEGIN { printf "%-44s %9.1f %9.2f %9.2f %10.1f %9.0f\n", f, b / 1e6, w, u + s, r / 1024, b / 1e6 / w }'
done
