#!/usr/bin/env bash
# Benchmark: export N voucher transactions (default 1,000,000) of one gift
# card to CSV through the real server on a throwaway PostgreSQL. The
# transactions are inserted by the database itself (INSERT … SELECT), then
# the export is requested through POST /v1/vouchers/{code}/transactions/export,
# polled until DONE and downloaded (the file is stored in the database as
# export_chunks). Reports the export's wall time, rows/s, the download's
# time, the file size, the space its chunks take in PostgreSQL, the server's
# peak RSS (VmHWM), and the time psql's \copy takes for the same CSV (the
# baseline of issue 17). ROUNDS (default 3) exports and \copy runs alternate
# (export first in odd rounds, \copy first in even ones); the ratio is taken
# per round and its median printed. PROMO_BIN runs another build.
#   .ci/with-postgres docs/bench/export.sh [N]
#   ROUNDS=5 PROMO_BIN=/tmp/old/promoengine .ci/with-postgres docs/bench/export.sh 1000000
# PPROF_ADDR=127.0.0.1:6062 also writes a 4-second CPU profile of the server
# during the first export to /tmp/export.cpu.pprof.
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-1000000}
ROUNDS=${ROUNDS:-3}
: "${PG_URL:?run me under .ci/with-postgres}"

db="bench_$(date +%s)"
psql -qAt "$PG_URL" -c "CREATE DATABASE $db" >/dev/null
url="${PG_URL/\/postgres\?//$db?}"
tmp=$(mktemp -d)
bin=${PROMO_BIN:-$tmp/promoengine}
[ -n "${PROMO_BIN:-}" ] || go build -o "$bin" ./cmd/promoengine
port=$((20000 + RANDOM % 20000))

PROMO_DATABASE_URL="$url" PROMO_AUTO_MIGRATE=true PROMO_ADDR="127.0.0.1:$port" PROMO_WORKERS=1 PROMO_LOG_LEVEL=warn \
  PROMO_RATE_LIMIT=-1 PROMO_PPROF_ADDR="${PPROF_ADDR:-}" PROMO_BOOTSTRAP_APP_ID=bench PROMO_BOOTSTRAP_APP_TOKEN=bench "$bin" >/dev/null 2>"$tmp/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done

H=(-H "X-App-Id: bench" -H "X-App-Token: bench" -H "Content-Type: application/json")
curl -fs "${H[@]}" "127.0.0.1:$port/v1/campaigns" -d '{"name":"gift","type":"STATIC",
  "voucher":{"type":"GIFT_VOUCHER","gift":{"amount":1000}}}' >/dev/null
curl -fs "${H[@]}" "127.0.0.1:$port/v1/campaigns/gift/vouchers" -d '{"code":"BENCH-GIFT"}' >/dev/null
curl -fs "${H[@]}" "127.0.0.1:$port/v1/vouchers/BENCH-GIFT/balance" -d '{"amount":1}' >/dev/null

# N transactions of the card, one millisecond apart, written by the database.
psql -qAt "$url" <<SQL >/dev/null
INSERT INTO voucher_transactions (id, project_id, created_at, voucher_id, campaign_id, type, source_id, reason,
  source, amount, balance, details)
SELECT 'vtx_' || substr(md5(random()::text || g::text), 1, 18), t.project_id,
  t.created_at + g * interval '1 millisecond', t.voucher_id, t.campaign_id, 'CREDITS_ADDITION', 'src-' || g, 'bench',
  'API', 1, 1001 + g, '{}'::jsonb
FROM generate_series(1, $N - 1) g, (SELECT * FROM voucher_transactions LIMIT 1) t;
VACUUM ANALYZE voucher_transactions;
SQL

# One export through the server: request → DONE, then the download.
export_once() {
  local start end body status link dstart dend
  if [ -n "${PPROF_ADDR:-}" ] && [ ! -e "$tmp/profiled" ]; then
    touch "$tmp/profiled"
    (sleep 0.5; curl -s "http://$PPROF_ADDR/debug/pprof/profile?seconds=4" -o /tmp/export.cpu.pprof) &
  fi
  start=$(date +%s.%N)
  exp=$(curl -fs "${H[@]}" "127.0.0.1:$port/v1/vouchers/BENCH-GIFT/transactions/export" \
    -d '{"parameters":{"order":"-created_at"}}' | grep -o '"id":"exp_[A-Za-z0-9]*"' | cut -d'"' -f4)
  while :; do
    body=$(curl -fs "${H[@]}" "127.0.0.1:$port/v1/exports/$exp")
    status=$(echo "$body" | grep -o '"status":"[A-Z_]*"' | cut -d'"' -f4)
    [ "$status" = DONE ] || [ "$status" = ERROR ] && break
    sleep 0.05
  done
  end=$(date +%s.%N)
  link=$(echo "$body" | grep -o '"url":"[^"]*"' | cut -d'"' -f4 | sed 's/\\u0026/\&/g')
  dstart=$(date +%s.%N)
  curl -fs "$link" -o "$tmp/export.csv"
  dend=$(date +%s.%N)
  took=$(echo "$end - $start" | bc -l)
  dtook=$(echo "$dend - $dstart" | bc -l)
  rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
  estatus=$status
}
# The baseline of issue 17: psql's \copy of the same rows, columns and order
# to a local CSV file (client side, like the download).
copy_once() {
  local cstart cend
  cstart=$(date +%s.%N)
  psql -qAt "$url" <<SQL >/dev/null
\copy (SELECT id, type, source_id, reason, balance, amount, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at, voucher_id, campaign_id, details, related_transaction_id, source FROM voucher_transactions WHERE voucher_id = (SELECT voucher_id FROM voucher_transactions LIMIT 1) ORDER BY created_at DESC, id DESC) TO '$tmp/copy.csv' WITH (FORMAT csv, HEADER)
SQL
  cend=$(date +%s.%N)
  ctook=$(echo "$cend - $cstart" | bc -l)
}

ratios=() dratios=()
printf '%-6s %-8s %-14s %-10s %-12s %-10s %-14s %-10s\n' round status "DONE (rows/s)" download "+download" "\\copy" "ratio D / +d" "RSS after"
for round in $(seq "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then export_once; copy_once; else copy_once; export_once; fi
  r=$(echo "$took / $ctook" | bc -l); d=$(echo "($took + $dtook) / $ctook" | bc -l)
  ratios+=("$r") dratios+=("$d")
  printf '%-6s %-8s %4.1f s (%6.0f) %5.1f s    %5.1f s      %5.1f s    %4.2f / %4.2f    %4.0f MB\n' "$round" "$estatus" \
    "$took" "$(echo "$N / $took" | bc -l)" "$dtook" "$(echo "$took + $dtook" | bc -l)" "$ctook" "$r" "$d" "$(echo "$rss / 1024" | bc -l)"
done
hwm=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
chunks=$(psql -qAt "$url" -c "SELECT count(*) || ' chunks, ' || pg_size_pretty(pg_total_relation_size('export_chunks')) FROM export_chunks")
kill $pid; wait $pid 2>/dev/null || true
psql -qAt "$PG_URL" -c "DROP DATABASE $db WITH (FORCE)" >/dev/null
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf 'CSV lines (with header):   %s (%.0f MB); \\copy: %s lines\n' "$(wc -l <"$tmp/export.csv")" \
  "$(echo "$(stat -c %s "$tmp/export.csv") / 1048576" | bc -l)" "$(wc -l <"$tmp/copy.csv")"
cmp -s "$tmp/export.csv" "$tmp/copy.csv" && echo 'export file = \copy file: identical bytes' || echo 'export file differs from the \copy file (details/JSON spacing, see docs/benchmarks.md)'
printf 'export_chunks in the DB:   %s\n' "$chunks"
printf 'median ratio to \\copy:    %.2f (request → DONE), %.2f (+ download) over %s rounds\n' \
  "$(median "${ratios[@]}")" "$(median "${dratios[@]}")" "$ROUNDS"
printf 'server peak RSS (VmHWM):   %.0f MB\n' "$(echo "$hwm / 1024" | bc -l)"
