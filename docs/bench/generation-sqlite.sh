#!/usr/bin/env bash
# Benchmark: generate N voucher codes (default 1,000,000) into one campaign
# through the real server on a fresh SQLite file, and compare with the floor:
# the sqlite3 command-line shell running one INSERT … SELECT of N rows of the
# same shape into the same indexed table of the same file, with the server's
# pragmas (WAL, synchronous=NORMAL, foreign keys). Reports wall time, rows/s,
# the ratio and the server's peak RSS (VmHWM). The floor runs twice: with the
# shell's default page cache (2 MB) and with the 64 MB a generation batch of
# the server uses (graph/voucher_insert_sqlite.go), so the ratio is also
# given against the same cache. ROUNDS (default 1) repeats floors and
# server one after the other, on the file emptied in between.
#   docs/bench/generation.sh sqlite [N]
#   PROMO_BIN=/path/to/promoengine docs/bench/generation.sh sqlite [N]   # another build
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-1000000}
ROUNDS=${ROUNDS:-1}
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 shell (Debian package sqlite3)" >&2; exit 1; }

tmp=$(mktemp -d)
bin=${PROMO_BIN:-$tmp/promoengine}
[ -n "${PROMO_BIN:-}" ] || go build -o "$bin" ./cmd/promoengine
db=$tmp/bench.db
port=$((20000 + RANDOM % 20000))
PROMO_DATABASE_URL="sqlite://$db" PROMO_AUTO_MIGRATE=true PROMO_ADDR="127.0.0.1:$port" PROMO_WORKERS=1 PROMO_LOG_LEVEL=warn \
  PROMO_RATE_LIMIT=-1 PROMO_BOOTSTRAP_APP_ID=bench PROMO_BOOTSTRAP_APP_TOKEN=bench "$bin" >/dev/null 2>"$tmp/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done

H=(-H "X-App-Id: bench" -H "X-App-Token: bench" -H "Content-Type: application/json")
campaign() { # name, vouchers_count
  curl -fs "${H[@]}" "127.0.0.1:$port/v1/campaigns" -d "{\"name\":\"$1\",\"type\":\"STATIC\",
    \"voucher\":{\"type\":\"DISCOUNT_VOUCHER\",\"discount\":{\"type\":\"PERCENT\",\"percent_off\":10},
    \"code_config\":{\"length\":12}},\"vouchers_count\":$2}" >/dev/null
}
shell() { sqlite3 -batch -cmd ".timeout 60000" -cmd "PRAGMA foreign_keys=ON" -cmd "PRAGMA synchronous=NORMAL" "$db" "$@"; }
# Empty the table and compact the file, so both writers start alike.
empty() { shell "DELETE FROM vouchers; UPDATE campaigns SET vouchers_count = 0; VACUUM; PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null; }

# The floor: the same rows (random 12-character codes and 32-character ids,
# same columns) written by SQLite itself into the same indexes; prints the
# seconds it took, wall and CPU (user + system). $1 is the page cache
# (cache_size).
floor() {
  sqlite3 -batch -cmd ".timeout 60000" -cmd "PRAGMA foreign_keys=ON" -cmd "PRAGMA synchronous=NORMAL" \
    -cmd "PRAGMA cache_size=$1" "$db" <<SQL | awk '/Run Time/ {printf "%s %s", $4, $6 + $8}'
.timer on
WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < $N)
INSERT INTO vouchers (id, created_at, project_id, code, campaign_id, type, active, metadata, is_referral_code,
  publish_count, redeemed_quantity, redeemed_points, discount)
SELECT 'v_' || lower(hex(randomblob(16))), strftime('%Y-%m-%d %H:%M:%f+00:00', 'now'), c.project_id,
  upper(substr(hex(randomblob(6)), 1, 12)), c.id, 'DISCOUNT_VOUCHER', 1, '{}', 0, 0, 0, 0,
  '{"type":"PERCENT","percent_off":10}'
FROM g, (SELECT id, project_id FROM campaigns WHERE name = 'floor') c WHERE true
ON CONFLICT DO NOTHING;
SQL
}

campaign floor 0
for round in $(seq "$ROUNDS"); do
  # 1. The floors, with the shell's default page cache and with 64 MB.
  read -r floor2 cpu2 <<<"$(floor -2000)"; empty
  read -r floor64 cpu64 <<<"$(floor -65536)"; empty

  # 2. The same number of codes through the service, on the emptied table.
  start=$(date +%s.%N) t0=$(awk '{print $14 + $15}' /proc/$pid/stat)
  campaign "bench$round" "$N"
  while :; do
    status=$(curl -fs "${H[@]}" "127.0.0.1:$port/v1/campaigns/bench$round" | grep -o '"vouchers_generation_status":"[A-Z_]*"' | cut -d'"' -f4)
    [ "$status" = DONE ] || [ "$status" = FAILED ] && break
    sleep 0.1
  done
  end=$(date +%s.%N) t1=$(awk '{print $14 + $15}' /proc/$pid/stat)
  cpu=$(echo "($t1 - $t0) / $(getconf CLK_TCK)" | bc -l)
  count=$(shell "SELECT count(*) FROM vouchers")
  gen=$(echo "$end - $start" | bc -l)
  printf 'round %s: server %.1f s (%.0f codes/s, %s vouchers, %s) | sqlite3 INSERT … SELECT %.1f s (2 MB cache), %.1f s (64 MB) | ratio %.2f, %.2f\n' \
    "$round" "$gen" "$(echo "$N / $gen" | bc -l)" "$count" "$status" "$floor2" "$floor64" \
    "$(echo "$gen / $floor2" | bc -l)" "$(echo "$gen / $floor64" | bc -l)"
  printf '         CPU (user + system): server %.1f s | sqlite3 %.1f s, %.1f s | ratio %.2f, %.2f\n' \
    "$cpu" "$cpu2" "$cpu64" "$(echo "$cpu / $cpu2" | bc -l)" "$(echo "$cpu / $cpu64" | bc -l)"
  [ "$round" = "$ROUNDS" ] || empty
done
hwm=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
kill $pid; wait $pid 2>/dev/null || true
printf 'server peak RSS (VmHWM):   %.0f MB\n' "$(echo "$hwm / 1024" | bc -l)"
