#!/usr/bin/env bash
# Benchmark: generate N voucher codes (default 1,000,000) into one campaign
# through the real server on a throwaway PostgreSQL, and compare with the
# physical floor: a server-side INSERT … SELECT of N rows of the same shape
# into the same indexed table. Reports wall time, rows/s, the ratio, the
# server's peak RSS (VmHWM), and the CPU the server and PostgreSQL took for
# the generation (per code, from /proc). PROMO_BIN=path runs that binary
# instead of building the working tree; SETUP_SQL='…' runs SQL on the
# migrated database before both (e.g. an index to weigh: CREATE INDEX … ON
# vouchers …). FLOOR=0 skips the floor (an A/B of the generation alone).
#   .ci/with-postgres docs/bench/generation.sh [N]
#   docs/bench/generation.sh sqlite [N]      # on SQLite, against the sqlite3 shell
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = sqlite ]; then shift; exec docs/bench/generation-sqlite.sh "$@"; fi
. docs/bench/lib.sh
N=${1:-1000000}
bench_init generation.sh
bench_pg
bench_db bench
bench_bin
bench_port
bench_start "$port" PROMO_WORKERS=1
pid=$bench_pid
bench_wait "127.0.0.1:$port/healthz"
[ -z "${SETUP_SQL:-}" ] || psql -qAt -v ON_ERROR_STOP=1 "$url" -c "$SETUP_SQL" >/dev/null

H=(-H "X-App-Id: bench" -H "X-App-Token: bench" -H "Content-Type: application/json")
campaign() { # name, vouchers_count
  curl -fs "${H[@]}" "127.0.0.1:$port/v1/campaigns" -d "{\"name\":\"$1\",\"type\":\"STATIC\",
    \"voucher\":{\"type\":\"DISCOUNT_VOUCHER\",\"discount\":{\"type\":\"PERCENT\",\"percent_off\":10},
    \"code_config\":{\"length\":12}},\"vouchers_count\":$2}" >/dev/null
}

# 1. The floor, on the empty table: the same rows (random 12-character codes,
#    same columns) written by the database itself into the same indexes.
if [ "${FLOOR:-1}" != 0 ]; then
  campaign floor 0
  floor=$(psql -qAt "$url" <<SQL | tail -n 1
\timing on
INSERT INTO vouchers (id, created_at, project_id, code, campaign_id, type, active, metadata, is_referral_code,
  publish_count, redeemed_quantity, redeemed_points, discount)
SELECT 'v_' || md5(random()::text), now(), c.project_id, substr(md5(random()::text || g::text), 1, 12), c.id,
  'DISCOUNT_VOUCHER', true, '{}'::jsonb, false, 0, 0, 0, '{"type":"PERCENT","percent_off":10}'::jsonb
FROM generate_series(1, $N) g, (SELECT id, project_id FROM campaigns WHERE name = 'floor') c
ON CONFLICT DO NOTHING;
SQL
  )
  floor_ms=$(echo "$floor" | grep -o '[0-9.]* ms' | cut -d' ' -f1)
  floor_s=$(echo "$floor_ms / 1000" | bc -l)
fi
psql -v ON_ERROR_STOP=1 -qAt "$url" -c "TRUNCATE vouchers CASCADE" -c "VACUUM ANALYZE vouchers" >/dev/null

# 2. The same number of codes through the service, on the emptied table,
#    with the CPU the server and PostgreSQL take meanwhile.
s0=$(bench_ticks "$pid") g0=$(bench_pgticks)
start=$(date +%s.%N)
campaign bench "$N"
while :; do
  status=$(curl -fs "${H[@]}" "127.0.0.1:$port/v1/campaigns/bench" | grep -o '"vouchers_generation_status":"[A-Z_]*"' | cut -d'"' -f4)
  [ "$status" = DONE ] || [ "$status" = FAILED ] && break
  sleep 0.1
done
end=$(date +%s.%N)
s1=$(bench_ticks "$pid") g1=$(bench_pgticks)
hwm=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
count=$(psql -qAt "$url" -c "SELECT count(*) FROM vouchers")
bench_stop "$pid"
gen=$(echo "$end - $start" | bc -l)

printf 'vouchers generated:        %s (status %s)\n' "$count" "$status"
printf 'generation through server: %.1f s (%.0f codes/s)\n' "$gen" "$(echo "$N / $gen" | bc -l)"
if [ "${FLOOR:-1}" != 0 ]; then
  printf 'INSERT … SELECT floor:     %.1f s (%.0f rows/s)\n' "$floor_s" "$(echo "$N / $floor_s" | bc -l)"
  printf 'ratio server / floor:      %.2f\n' "$(echo "$gen / $floor_s" | bc -l)"
fi
printf 'server peak RSS (VmHWM):   %.0f MB\n' "$(echo "$hwm / 1024" | bc -l)"
printf 'CPU of the generation:     server %.1f s, PostgreSQL %.1f s (%.2f + %.2f µs per code)\n' \
  "$(echo "($s1 - $s0) / $hz" | bc -l)" "$(echo "($g1 - $g0) / $hz" | bc -l)" \
  "$(echo "($s1 - $s0) / $hz * 1000000 / $N" | bc -l)" "$(echo "($g1 - $g0) / $hz * 1000000 / $N" | bc -l)"
