#!/usr/bin/env bash
# Benchmark: publications per second through the full HTTP stack on
# PostgreSQL at C concurrent clients (default 16) for D seconds (default 20),
# next to pgbench's default TPC-B-like workload (prepared statements) at the
# same concurrency on the same server, and pgbench running the
# publication's single SQL statement directly (docs/bench/pubsql): what
# PostgreSQL alone can do for a publication, without HTTP, JSON or Go. R
# rounds (default 3) of the three loads, in the opposite order in even
# rounds; it prints each round, the per-round ratios and their medians.
#   .ci/with-postgres docs/bench/publications.sh [C] [D] [R]   (V=vouchers in the campaign, default 1,000,000)
#   docs/bench/publications.sh sqlite [C] [D]   # on SQLite (publications-sqlite.sh)
# PROMO_BIN=path runs that binary instead of building the working tree (A/B
# against an earlier build; with a build before 2026-11-27 evening, whose
# REST publication returned the whole campaign, PUBSQL_FLAGS=-full-campaign
# replays that statement). PPROF_SECONDS sets the length of round 1's CPU
# profile (default 5) and of its allocation profile, /tmp/pub.allocs.pprof. Each publication load prints a "cpu:" line (the
# server's and PostgreSQL's cores during it, from /proc) and the CPU
# milliseconds per publication of each; the SQL load prints one too, per
# transaction. WEAR=1 also reports how the tables wear across rounds: before
# round 1 and after every round the vouchers table's and its neighbours'
# row counters (pg_stat_user_tables: updates, HOT updates, dead rows,
# autovacuum and autoanalyze runs), relation sizes, and EXPLAIN (ANALYZE,
# BUFFERS) of the statement in a rolled-back transaction (whole plans in
# the printed directory); around each of the two publication loads, the
# buffers read per publication, by relation (pg_statio_*), which costs an
# 11-second pause after the server's load for its connections to report.
# With WEAR=1 PostgreSQL also logs every autovacuum and autoanalyze run
# (log_autovacuum_min_duration = 0, for the run), and each load prints
# those that ended during it: table, pages, dead rows, the indexes vacuumed,
# buffers, I/O, WAL and CPU. SETUP_SQL='…' runs SQL on the database after
# the set-up (e.g. ALTER TABLE vouchers SET (autovacuum_vacuum_cost_delay
# = 10)), to try a setting without a migration.
# ANALYZE_ROUNDS='1 3' runs ANALYZE vouchers, throttled as autovacuum's
# (vacuum_cost_delay 2 ms, vacuum_cost_limit 200), from 2 seconds into the
# publication load of those rounds: what an autoanalyze of the vouchers
# table costs the load it falls in, next to the rounds without.
# PG_PERF=1 records PostgreSQL's processes with perf for 5 seconds of each
# publication load and of each SQL load ($tmp/perf.{pub,sql}.<round>).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = sqlite ]; then shift; exec docs/bench/publications-sqlite.sh "$@"; fi
. docs/bench/lib.sh
C=${1:-16}
D=${2:-20}
R=${3:-3}
bench_init publications.sh
bench_keep_tmp=1 # the logs, plans and profiles stay in $tmp; the copied binaries (~180 MB) go
bench_pg
bench_db pub
bench_bin pubload redload pubsql
bench_port
bench_start "$port" PROMO_PPROF_ADDR="${PPROF_ADDR:-}"
pid=$bench_pid
bench_wait "127.0.0.1:$port/healthz"

# A STATIC campaign with enough vouchers for the whole run.
H=(-H "X-App-Id: bench" -H "X-App-Token: bench" -H "Content-Type: application/json")
curl -fs "${H[@]}" "127.0.0.1:$port/v1/campaigns" -d '{"name":"load","type":"STATIC",
  "voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"code_config":{"length":10}},
  "vouchers_count":'"${V:-1000000}"'}' >/dev/null
until curl -fs "${H[@]}" "127.0.0.1:$port/v1/campaigns/load" | grep -q '"vouchers_generation_status":"DONE"'; do sleep 0.5; done
# Start every load from a settled voucher table: nothing left for
# autovacuum or the checkpointer from filling the campaign. Only the voucher
# table: statistics saying that customers and publications are empty would
# make every connection plan its foreign-key checks on them as sequential
# scans, which grow slower as the load fills those tables (autovacuum only
# corrects the statistics a minute later).
psql -qAt "$url" -c "VACUUM ANALYZE vouchers" -c "CHECKPOINT" >/dev/null
[ -z "${SETUP_SQL:-}" ] || psql -qAt -v ON_ERROR_STOP=1 "$url" -c "$SETUP_SQL" >/dev/null
if [ -n "${WEAR:-}" ]; then
  psql -qAt "$PG_URL" -c "ALTER SYSTEM SET log_autovacuum_min_duration = 0" -c "SELECT pg_reload_conf()" >/dev/null
  bench_on_exit() { psql -qAt "$PG_URL" -c "ALTER SYSTEM RESET log_autovacuum_min_duration" -c "SELECT pg_reload_conf()" >/dev/null 2>&1; }
fi

project=$(psql -qAt "$url" -c "SELECT project_id FROM app_keys WHERE id = 'bench'")
"$tmp/pubsql" -project "$project" -campaign load ${PUBSQL_FLAGS:-} > "$tmp/pub.sql"
bench_pgbench_db "$C"

# WEAR=1: the tables' wear (see the header).
wear_counts() { # relation → buffers found in shared buffers, buffers read in; then the cluster's counters
  psql -qAt -F ' ' "$url" -c "SELECT relname, heap_blks_hit + coalesce(toast_blks_hit, 0), heap_blks_read + coalesce(toast_blks_read, 0) FROM pg_statio_user_tables
    UNION ALL SELECT indexrelname, idx_blks_hit, idx_blks_read FROM pg_statio_user_indexes
    UNION ALL SELECT '(backend_writes,allocs)', buffers_backend, buffers_alloc FROM pg_stat_bgwriter
    UNION ALL SELECT '(WAL_bytes,records)', wal_bytes, wal_records FROM pg_stat_wal"
}
wear_buffers() { # before-file after-file transactions: buffers hit and read per transaction by relation, the most first
  awk -v n="$3" 'NR == FNR { h[$1] = $2; d[$1] = $3; next }
    { x = ($2 - h[$1]) / n; y = ($3 - d[$1]) / n
      if ($1 ~ /^\(/) { printf "  %-48s %9.2f %9.2f\n", $1, x, y; next }
      th += x; tr += y; if (x + y >= 0.05) printf "  %-48s %9.2f %9.2f\n", $1, x, y }
    END { printf "  %-48s %9.2f %9.2f\n", "(all-relations)", th, tr }' "$1" "$2" | sort -k2 -rn
}
wear_report() { # label
  [ -n "${WEAR:-}" ] || return 0
  echo "== wear $1: rows and sizes"
  psql -qAt -F ' ' "$url" -c "SELECT relname, 'live', n_live_tup, 'dead', n_dead_tup, 'upd', n_tup_upd, 'hot', n_tup_hot_upd,
      'autovacuum', autovacuum_count, 'autoanalyze', autoanalyze_count, 'heap_MB', pg_relation_size(relid) / 1048576,
      'indexes_MB', pg_indexes_size(relid) / 1048576
    FROM pg_stat_user_tables WHERE relname IN ('vouchers', 'customers', 'publications', 'publication_vouchers') ORDER BY relname" | sed 's/^/  /'
  psql -qAt -F ' ' "$url" -c "SELECT indexrelname, pg_relation_size(indexrelid) / 1048576 || ' MB' FROM pg_stat_user_indexes
    WHERE relname = 'vouchers' ORDER BY indexrelname" | sed 's/^/  /'
  { echo "BEGIN;"; echo "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) $(cat "$tmp/pub.sql")"; echo "ROLLBACK;"; } | psql -qAt "$url" > "$tmp/explain.$1" 2>&1 || true
  echo "== wear $1: EXPLAIN (ANALYZE, BUFFERS) of the statement ($tmp/explain.$1): its buffers and times, the pick's node"
  grep -E "^(Planning|Execution)|^  Buffers" "$tmp/explain.$1" | head -4 | sed 's/^ */  /'
  grep -A8 -E "CTE pick_from" "$tmp/explain.$1" | sed 's/^ */  /'
}
wear_before() {
  [ -n "${WEAR:-}" ] || return 0
  wear_counts > "$tmp/wear.$1.before"
  wc -c < "$pglog" > "$tmp/wear.$1.logmark"
}
wear_autovacuum() { # step: the autovacuum and autoanalyze runs of this database that ended since wear_before
  echo "== wear: autovacuum and autoanalyze runs that ended during the $1 load of round $r"
  tail -c +$(($(cat "$tmp/wear.$1.logmark") + 1)) "$pglog" | awk -v db="$db" '
    /LOG: +automatic (vacuum|analyze) of table/ { on = index($0, "\"" db ".") > 0; if (on) { sub(/.*LOG: +/, ""); print "  " $0 }; next }
    /^\t/ { if (on && /pages:|tuples:|removable|index "|scan needed|I\/O timings|avg read|buffer usage|WAL usage|system usage/) { sub(/^\t+/, ""); print "    " $0 }; next }
    { on = 0 }'
}
wear_after() { # step transactions
  [ -n "${WEAR:-}" ] || return 0
  wear_counts > "$tmp/wear.$1.after"
  wear_autovacuum "$1"
  echo "== wear: per transaction, $1 load of round $r: buffers hit and read by relation; buffers written by backends and allocated; WAL"
  wear_buffers "$tmp/wear.$1.before" "$tmp/wear.$1.after" "$2" | head -20
}

step_pub() {
  echo "== round $r: promoengine: POST /v1/publications, $C clients, ${D}s"
  psql -qAt "$url" -c "CHECKPOINT" >/dev/null
  if [ -n "${PPROF_ADDR:-}" ] && [ "$r" = 1 ]; then
    (sleep 2; curl -s "http://$PPROF_ADDR/debug/pprof/profile?seconds=${PPROF_SECONDS:-5}" -o /tmp/pub.cpu.pprof) &
    (sleep 2; curl -s "http://$PPROF_ADDR/debug/pprof/allocs?seconds=${PPROF_SECONDS:-5}" -o /tmp/pub.allocs.pprof) &
  fi
  wear_before pub
  if [ -n "${PG_PERF:-}" ]; then
    (sleep 2; perf record -q -F 499 -o "$tmp/perf.pub.$r" -p "$(pgrep -d, -P "$postmaster")" -- sleep 5 >/dev/null 2>&1) &
  fi
  if [[ " ${ANALYZE_ROUNDS:-} " == *" $r "* ]]; then
    (sleep 2; t0=$(date +%s.%N)
      psql -qAt "$url" -c "SET vacuum_cost_delay = 2" -c "SET vacuum_cost_limit = 200" -c "ANALYZE VERBOSE vouchers" 2>&1 |
        grep -o 'scanned .*' | sed 's/^/analyze of vouchers during this load: /'
      echo "analyze of vouchers during this load: $(echo "$(date +%s.%N) - $t0" | bc -l | cut -c1-5) s") > "$tmp/analyze.$r" &
    analyzer=$!
  fi
  "$tmp/redload" -watch-only -postmaster "$postmaster" -root $$ -duration "${D}s" > "$tmp/pubcpu.$r" &
  local watch=$!
  "$tmp/pubload" -url "http://127.0.0.1:$port" -app-id bench -app-token bench -campaign load -clients "$C" -duration "${D}s" | tee "$tmp/pub.$r"
  wait "$watch"
  cat "$tmp/pubcpu.$r"
  if [ -e "$tmp/analyze.$r" ]; then wait "$analyzer"; cat "$tmp/analyze.$r"; fi
  local n; n=$(grep -o '= [0-9]*/s' "$tmp/pub.$r" | grep -o '[0-9]*')
  sed -n 's/^cpu: server \([0-9.]*\), postgres \([0-9.]*\) .*/\1 \2/p' "$tmp/pubcpu.$r" | while read -r srv pg; do
    printf 'cpu per publication: server %.3f ms, postgres %.3f ms\n' "$(echo "$srv * 1000 / $n" | bc -l)" "$(echo "$pg * 1000 / $n" | bc -l)"
  done
  if [ -n "${WEAR:-}" ]; then sleep 11; wear_after pub "$(grep -o '[0-9]* ok' "$tmp/pub.$r" | grep -o '[0-9]*')"; fi
}
step_sql() {
  echo "== round $r: the same publication as one SQL statement through pgbench (no HTTP), $C clients, ${D}s"
  psql -qAt "$url" -c "CHECKPOINT" >/dev/null
  wear_before sql
  if [ -n "${PG_PERF:-}" ]; then
    (sleep 2; perf record -q -F 499 -o "$tmp/perf.sql.$r" -p "$(pgrep -d, -P "$postmaster")" -- sleep 5 >/dev/null 2>&1) &
  fi
  "$tmp/redload" -watch-only -postmaster "$postmaster" -root $$ -duration "${D}s" > "$tmp/sqlcpu.$r" &
  local watch=$!
  "$pgbin/pgbench" -n -M prepared -c "$C" -j 2 -T "$D" -f "$tmp/pub.sql" "$url" 2>/dev/null | tee "$tmp/pubsql.$r" | grep -E "^(tps|latency average)"
  wait "$watch"
  cat "$tmp/sqlcpu.$r"
  local tps; tps=$(grep -o '^tps = [0-9.]*' "$tmp/pubsql.$r" | grep -o '[0-9.]*$')
  sed -n 's/^cpu: server \([0-9.]*\), postgres \([0-9.]*\) .*/\2/p' "$tmp/sqlcpu.$r" | while read -r pg; do
    printf 'cpu per transaction: postgres %.3f ms\n' "$(echo "$pg * 1000 / $tps" | bc -l)"
  done
  wear_after sql "$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$tmp/pubsql.$r")"
}
step_tpcb() {
  echo "== round $r: pgbench (TPC-B-like, scale $C, prepared), $C clients, ${D}s"
  psql -qAt "$bench_url" -c "CHECKPOINT" >/dev/null
  "$pgbin/pgbench" -M prepared -c "$C" -j 2 -T "$D" "$bench_url" 2>/dev/null | tee "$tmp/pgbench.$r" | grep -E "^(tps|latency average)"
}
steps=(step_pub step_sql step_tpcb)
rows=()
wear_report start
for r in $(seq "$R"); do
  order=("${steps[@]}")
  [ $((r % 2)) -eq 0 ] && order=(step_tpcb step_sql step_pub)
  for step in "${order[@]}"; do "$step"; done
  wear_report "round$r"
  pub=$(grep -o '= [0-9]*/s' "$tmp/pub.$r" | grep -o '[0-9]*')
  sqltps=$(grep -o '^tps = [0-9.]*' "$tmp/pubsql.$r" | grep -o '[0-9.]*$')
  tps=$(grep -o '^tps = [0-9.]*' "$tmp/pgbench.$r" | grep -o '[0-9.]*$')
  p99=$(sed -n 's/.*p99 \([0-9.]*\) ms.*/\1/p' "$tmp/pub.$r")
  rows+=("$(printf '%s %.0f %.0f %.0f %.3f %.3f %.3f %s' "$r" "$pub" "$sqltps" "$tps" \
    "$(echo "$pub / $tps" | bc -l)" "$(echo "$sqltps / $tps" | bc -l)" "$(echo "$pub / $sqltps" | bc -l)" "${p99:-?}")")
done
echo "== per round: publications/s, publication SQL TPS, TPC-B TPS, publications ÷ TPC-B, SQL ÷ TPC-B, publications ÷ SQL, publication p99 ms"
printf '%s\n' "${rows[@]}"
for i in 5 6 7; do
  case $i in 5) what="publications/s ÷ TPC-B TPS";; 6) what="publication SQL (no HTTP) ÷ TPC-B TPS";; 7) what="publications/s ÷ the same SQL through pgbench";; esac
  printf '== median over %s rounds of %s: %s\n' "$R" "$what" "$(printf '%s\n' "${rows[@]}" | cut -d' ' -f$i | median)"
done
