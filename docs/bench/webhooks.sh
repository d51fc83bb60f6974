#!/usr/bin/env bash
# Benchmark: publications per second with a webhook subscribed to
# voucher.published against without, on one PostgreSQL database, in
# alternating rounds (off/on, then on/off, ...) of D seconds at C concurrent
# clients; between modes only the webhook's `active` flag changes.
#   1. "delivered": the server's workers deliver the events while the load
#      runs, to docs/bench/pubload itself (-hook-listen, on loopback; it
#      answers 204 at once and checks every signature), which reports the
#      delivery lag (the event's created_at to its arrival).
#   2. "outbox only": the same with the workers off (PROMO_WORKERS=0): what
#      writing the events costs the request path alone.
# Each run also reports the CPU that the server, PostgreSQL and pubload
# (load generator and receiver) took per publication, and what other
# processes on the machine took meanwhile (redload -watch-only).
#   .ci/with-postgres docs/bench/webhooks.sh [C] [D] [ROUNDS]
# PROMO_BIN=path runs that binary instead of building the working tree.
set -euo pipefail
cd "$(dirname "$0")/../.."
. docs/bench/lib.sh
C=${1:-16}
D=${2:-10}
R=${3:-3}
VOUCHERS=${VOUCHERS:-$((R * 4 * D * 4000))}
bench_init webhooks.sh
bench_keep_tmp=1 # the server's output and the loads' reports stay in $tmp; the binaries go
bench_pg
bench_db hooks
bench_bin redload pubload
bench_port
hookport=$((port + 1))
start() { # workers
  bench_start "$port" PROMO_WEBHOOK_ALLOW_PRIVATE=true PROMO_WORKERS="$1" PROMO_PPROF_ADDR="${PPROF_ADDR:-}"
  pid=$bench_pid
  bench_wait "127.0.0.1:$port/healthz"
}
stop() { bench_stop "$pid"; }
start 2
project=$(grep -o 'proj_[0-9A-Za-z]*' "$tmp/server.out" | head -n 1)

H=(-H "X-App-Id: bench" -H "X-App-Token: bench" -H "Content-Type: application/json")
M=(-H "X-Management-Id: benchm" -H "X-Management-Token: benchm" -H "Content-Type: application/json")
mgmt="127.0.0.1:$port/management/v1/projects/$project"
curl -fs "${H[@]}" "127.0.0.1:$port/v1/campaigns" -d '{"name":"load","type":"STATIC",
  "voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"code_config":{"length":10}},
  "vouchers_count":'"$VOUCHERS"'}' >/dev/null
until curl -fs "${H[@]}" "127.0.0.1:$port/v1/campaigns/load" | grep -q '"vouchers_generation_status":"DONE"'; do sleep 0.5; done
target='"target_url":"http://127.0.0.1:'"$hookport"'/hook","events":["voucher.published"]'
hook=$(curl -fs "${M[@]}" "$mgmt/webhooks" -d "{$target,\"active\":false}" | grep -o 'wh_[0-9A-Za-z]*' | head -n 1)
token=$(curl -fs "${M[@]}" "$mgmt" | grep -o '"webhook_token":"[0-9a-f]*"' | grep -o '[0-9a-f]\{64\}')
# As docs/bench/publications.sh: only the voucher table is analyzed.
psql -qAt "$url" -c "VACUUM ANALYZE vouchers" -c "CHECKPOINT" >/dev/null

run() { # phase mode round
  local args=()
  [ "$2" = on ] && [ "$1" = delivered ] && args=(-hook-listen "127.0.0.1:$hookport" -hook-token "$token" -hook-drain 120s)
  curl -fs -X PUT "${M[@]}" "$mgmt/webhooks/$hook" -d "{$target,\"active\":$([ "$2" = on ] && echo true || echo false)}" >/dev/null
  psql -qAt "$url" -c "CHECKPOINT" >/dev/null
  echo "== $1, round $3, webhook $2: POST /v1/publications, $C clients, ${D}s"
  "$tmp/redload" -watch-only -postmaster "$postmaster" -duration "${D}s" > "$tmp/cpu.$1.$2.$3" &
  local watch=$!
  "$tmp/pubload" -url "http://127.0.0.1:$port" -app-id bench -app-token bench -campaign load \
    -clients "$C" -duration "${D}s" "${args[@]}" | tee "$tmp/$1.$2.$3.txt"
  wait $watch
  cat "$tmp/cpu.$1.$2.$3"
  if [ "$1" = delivered ]; then # the next round starts with an empty queue
    until [ "$(psql -qAt "$url" -c "SELECT count(*) FROM webhook_events WHERE state = 'PENDING'")" = 0 ]; do sleep 0.2; done
  fi
}
rounds() { # phase
  for r in $(seq "$R"); do
    if [ $((r % 2)) = 1 ]; then run "$1" off "$r"; run "$1" on "$r"; else run "$1" on "$r"; run "$1" off "$r"; fi
  done
}
rounds delivered
stop
start 0
rounds outbox
echo "== load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
grep -h '"level":"ERROR"' "$tmp/server.log" | head -n 5 || true
echo "== delivery attempts: success, status, error, count"
psql -qAt "$url" -c "SELECT success, status_code, left(coalesce(error, ''), 60), count(*) FROM webhook_deliveries GROUP BY 1, 2, 3 ORDER BY 4 DESC LIMIT 5"

rate() { grep -o '= [0-9]*/s' "$tmp/$1.$2.$3.txt" | grep -o '[0-9]*'; }
p99() { grep -o 'lag: .*p99 [0-9.]* ms' "$tmp/delivered.on.$1.txt" | grep -o 'p99 [0-9.]*' | grep -o '[0-9.]*$'; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
for phase in delivered outbox; do
  echo "== $phase: publications/s without webhook, with webhook, ratio"
  for r in $(seq "$R"); do
    off=$(rate "$phase" off "$r"); on=$(rate "$phase" on "$r")
    printf 'round %d: %d/s, %d/s, %.2f%s\n' "$r" "$off" "$on" "$(echo "$on / $off" | bc -l)" \
      "$([ "$phase" = delivered ] && echo "; delivery lag p99 $(p99 "$r") ms")"
  done
  moff=$(for r in $(seq "$R"); do rate "$phase" off "$r"; done | median)
  mon=$(for r in $(seq "$R"); do rate "$phase" on "$r"; done | median)
  mratio=$(for r in $(seq "$R"); do echo "$(rate "$phase" on "$r") / $(rate "$phase" off "$r")" | bc -l; done | median)
  printf '%s, medians: %s/s without, %s/s with; ratio of medians %.2f, median of round ratios %.2f\n' \
    "$phase" "$moff" "$mon" "$(echo "$mon / $moff" | bc -l)" "$mratio"
done
cores() { sed -n "s/.*$1 \\([0-9.]*\\).*/\\1/p" "$tmp/cpu.$2.$3.$4"; }
echo "== CPU per publication in ms (server, PostgreSQL, pubload = load generator and receiver), per round; other processes in cores"
for phase in delivered outbox; do
  for mode in off on; do
    for r in $(seq "$R"); do
      rt=$(rate "$phase" "$mode" "$r")
      per() { printf '%.3f' "$(echo "$(cores "$1" "$phase" "$mode" "$r") * 1000 / $rt" | bc -l)"; }
      echo "$phase, webhook $mode, round $r: server $(per server), postgres $(per postgres), pubload $(per 'load generator'); other processes $(cores 'other processes' "$phase" "$mode" "$r")"
    done
  done
done
printf 'delivery lag p99, median of rounds: %s ms\n' "$(for r in $(seq "$R"); do p99 "$r"; done | median)"
