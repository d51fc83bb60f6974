#!/usr/bin/env bash
# Benchmark: export N voucher transactions (default 1,000,000) of one gift
# card to CSV through the real server on a throwaway PostgreSQL. The
# transactions are inserted by the database itself (INSERT … SELECT), then
# the export is requested through POST /v1/vouchers/{code}/transactions/export,
# polled until DONE and downloaded (the file is stored in the database as
# export_chunks). Reports the export's wall time, rows/s, the download's
# time, the file size, the space its chunks take in PostgreSQL, the server's
# peak RSS (VmHWM), and the time psql's \copy takes for the same CSV (the
# baseline of issue 17).
#   .ci/with-postgres docs/bench/export.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-1000000}
: "${PG_URL:?run me under .ci/with-postgres}"

db="bench_$(date +%s)"
psql -qAt "$PG_URL" -c "CREATE DATABASE $db" >/dev/null
url="${PG_URL/\/postgres\?//$db?}"
tmp=$(mktemp -d)
bin=$tmp/promoengine
go build -o "$bin" ./cmd/promoengine
port=$((20000 + RANDOM % 20000))

PROMO_DATABASE_URL="$url" PROMO_ADDR="127.0.0.1:$port" PROMO_WORKERS=1 PROMO_LOG_LEVEL=warn \
  PROMO_BOOTSTRAP_APP_ID=bench PROMO_BOOTSTRAP_APP_TOKEN=bench "$bin" >/dev/null 2>"$bin.log" &
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

start=$(date +%s.%N)
exp=$(curl -fs "${H[@]}" "127.0.0.1:$port/v1/vouchers/BENCH-GIFT/transactions/export" \
  -d '{"parameters":{"order":"-created_at"}}' | grep -o '"id":"exp_[A-Za-z0-9]*"' | cut -d'"' -f4)
while :; do
  body=$(curl -fs "${H[@]}" "127.0.0.1:$port/v1/exports/$exp")
  status=$(echo "$body" | grep -o '"status":"[A-Z_]*"' | cut -d'"' -f4)
  [ "$status" = DONE ] || [ "$status" = ERROR ] && break
  sleep 0.1
done
end=$(date +%s.%N)
link=$(echo "$body" | grep -o '"url":"[^"]*"' | cut -d'"' -f4 | sed 's/\\u0026/\&/g')
dstart=$(date +%s.%N)
curl -fs "$link" -o "$tmp/export.csv"
dend=$(date +%s.%N)
hwm=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
# The baseline of issue 17: psql's \copy of the same rows, columns and order
# to a local CSV file (client side, like the download).
cstart=$(date +%s.%N)
psql -qAt "$url" <<SQL >/dev/null
\copy (SELECT id, type, source_id, reason, balance, amount, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at, voucher_id, campaign_id, details, related_transaction_id, source FROM voucher_transactions WHERE voucher_id = (SELECT voucher_id FROM voucher_transactions LIMIT 1) ORDER BY created_at DESC, id DESC) TO '$tmp/copy.csv' WITH (FORMAT csv, HEADER)
SQL
cend=$(date +%s.%N)
chunks=$(psql -qAt "$url" -c "SELECT count(*) || ' chunks, ' || pg_size_pretty(pg_total_relation_size('export_chunks')) FROM export_chunks")
kill $pid; wait $pid 2>/dev/null || true
psql -qAt "$PG_URL" -c "DROP DATABASE $db WITH (FORCE)" >/dev/null
took=$(echo "$end - $start" | bc -l)
dtook=$(echo "$dend - $dstart" | bc -l)
ctook=$(echo "$cend - $cstart" | bc -l)
lines=$(wc -l <"$tmp/export.csv")

printf 'export status:             %s\n' "$status"
printf 'CSV lines (with header):   %s (%.0f MB)\n' "$lines" "$(echo "$(stat -c %s "$tmp/export.csv") / 1048576" | bc -l)"
printf 'export through server:     %.1f s (%.0f rows/s)\n' "$took" "$(echo "$N / $took" | bc -l)"
printf 'download (curl):           %.1f s\n' "$dtook"
printf 'export + download:         %.1f s (%.1fx psql \\copy)\n' "$(echo "$took + $dtook" | bc -l)" "$(echo "($took + $dtook) / $ctook" | bc -l)"
printf 'psql \\copy baseline:       %.1f s (%s lines)\n' "$ctook" "$(wc -l <"$tmp/copy.csv")"
printf 'export_chunks in the DB:   %s\n' "$chunks"
printf 'server peak RSS (VmHWM):   %.0f MB\n' "$(echo "$hwm / 1024" | bc -l)"
