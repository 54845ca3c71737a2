#!/usr/bin/env bash
# Makes a large Nsight Systems export for the import benchmark (docs/PERFORMANCE.md): the 2024.5
# CloverLeaf export of ../shared/external-traces/nsys with its kernel, copy, synchronisation,
# runtime and OS runtime rows repeated COPIES times, each copy shifted past the last in time and
# given fresh correlation ids, so the repeated rows still link and do not overlap.
#     scripts/make-nsys-bench.sh OUT.sqlite [COPIES]   (default 200: about 1.6 million rows)
set -euo pipefail
out=${1:?usage: make-nsys-bench.sh OUT.sqlite [COPIES]}
copies=${2:-200}
src="$(cd "$(dirname "$0")/.." && pwd)/../shared/external-traces/nsys/nsys-2024.5-pipit-cloverleaf.sqlite"
rm -f "$out"
cp "$src" "$out"
chmod u+w "$out"
tables="CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_MEMCPY CUPTI_ACTIVITY_KIND_SYNCHRONIZATION CUPTI_ACTIVITY_KIND_RUNTIME OSRT_API"
span=$(sqlite3 "$out" "SELECT MAX(m) - MIN(s) + 1000 FROM (SELECT MIN(start) s, MAX(end) m FROM CUPTI_ACTIVITY_KIND_RUNTIME UNION ALL SELECT MIN(start), MAX(end) FROM OSRT_API UNION ALL SELECT MIN(start), MAX(end) FROM CUPTI_ACTIVITY_KIND_KERNEL)")
corr=$(sqlite3 "$out" "SELECT MAX(correlationId) + 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME")
sql="BEGIN;"
for t in $tables; do
    cols=$(sqlite3 "$out" "SELECT group_concat('\"' || name || '\"', ',') FROM pragma_table_info('$t')")
    sel=$(sqlite3 "$out" "SELECT group_concat(CASE name WHEN 'start' THEN 'start + c.i * $span' WHEN 'end' THEN 'end + c.i * $span' WHEN 'correlationId' THEN 'correlationId + c.i * $corr' ELSE '\"' || name || '\"' END, ',') FROM pragma_table_info('$t')")
    sql+="CREATE TEMP TABLE base_$t AS SELECT * FROM $t;"
    sql+="WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < $copies) INSERT INTO $t ($cols) SELECT $sel FROM base_$t, c;"
done
sql+="COMMIT;"
sqlite3 "$out" "$sql"
sqlite3 "$out" "SELECT 'rows: ' || ((SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL) + (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY) + (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION) + (SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME) + (SELECT COUNT(*) FROM OSRT_API))"
