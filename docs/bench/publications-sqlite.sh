#!/usr/bin/env bash
# Benchmark: publications per second through the full HTTP stack on the
# embedded SQLite (a fresh file) at C concurrent clients (default 8) for D
# seconds (default 20), ROUNDS times (default 3) on the same server, with
# throughput and latency percentiles per round. There is no pgbench-like
# peer for SQLite; compare builds with PROMO_BIN, alternating runs.
#   docs/bench/publications.sh sqlite [C] [D]
#   PROMO_BIN=/tmp/old/promoengine docs/bench/publications.sh sqlite 8 20
# PPROF_ADDR=127.0.0.1:6061 also writes a 5-second CPU profile of the
# server during the first round to /tmp/pub-sqlite.cpu.pprof.
set -euo pipefail
cd "$(dirname "$0")/../.."
C=${1:-8}
D=${2:-20}
ROUNDS=${ROUNDS:-3}
VOUCHERS=${VOUCHERS:-100000}

tmp=$(mktemp -d)
bin=${PROMO_BIN:-$tmp/promoengine}
[ -n "${PROMO_BIN:-}" ] || go build -o "$bin" ./cmd/promoengine
go build -o "$tmp/pubload" ./docs/bench/pubload
port=$((20000 + RANDOM % 20000))
PROMO_DATABASE_URL="sqlite://$tmp/bench.db" PROMO_AUTO_MIGRATE=true PROMO_ADDR="127.0.0.1:$port" PROMO_LOG_LEVEL=warn \
  PROMO_RATE_LIMIT=-1 PROMO_PPROF_ADDR="${PPROF_ADDR:-}" PROMO_BOOTSTRAP_APP_ID=bench PROMO_BOOTSTRAP_APP_TOKEN=bench \
  "$bin" >/dev/null 2>"$tmp/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done

# A STATIC campaign with enough vouchers for every round.
H=(-H "X-App-Id: bench" -H "X-App-Token: bench" -H "Content-Type: application/json")
curl -fs "${H[@]}" "127.0.0.1:$port/v1/campaigns" -d "{\"name\":\"load\",\"type\":\"STATIC\",
  \"voucher\":{\"type\":\"DISCOUNT_VOUCHER\",\"discount\":{\"type\":\"AMOUNT\",\"amount_off\":100},\"code_config\":{\"length\":10}},
  \"vouchers_count\":$VOUCHERS}" >/dev/null
until curl -fs "${H[@]}" "127.0.0.1:$port/v1/campaigns/load" | grep -q '"vouchers_generation_status":"DONE"'; do sleep 0.5; done

# The server's CPU time so far (user + system, in clock ticks): on a shared
# machine CPU per publication is steadier than publications per second.
cputicks() { awk '{print $14 + $15}' /proc/$pid/stat; }
hz=$(getconf CLK_TCK)
for round in $(seq "$ROUNDS"); do
  if [ -n "${PPROF_ADDR:-}" ] && [ "$round" = 1 ]; then
    (sleep 2; curl -s "http://$PPROF_ADDR/debug/pprof/profile?seconds=5" -o /tmp/pub-sqlite.cpu.pprof) &
  fi
  echo "== round $round: POST /v1/publications on SQLite, $C clients, ${D}s"
  t0=$(cputicks)
  "$tmp/pubload" -url "http://127.0.0.1:$port" -app-id bench -app-token bench -campaign load -clients "$C" -duration "${D}s" | tee "$tmp/round.txt"
  ok=$(grep -o '^publications: [0-9]*' "$tmp/round.txt" | grep -o '[0-9]*$')
  printf 'server CPU: %.2f ms per publication\n' "$(echo "($(cputicks) - $t0) * 1000 / $hz / $ok" | bc -l)"
done
printf 'server peak RSS (VmHWM): %.0f MB\n' "$(echo "$(awk '/VmHWM/ {print $2}' /proc/$pid/status) / 1024" | bc -l)"
