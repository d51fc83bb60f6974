#!/usr/bin/env bash
# A/B of the server's CPU per publication on a shared host: both builds
# serve at once on one PostgreSQL database (a STATIC campaign of 400,000
# vouchers), each driven by its own pubload at C clients (default 8) for D
# seconds (default 15), R rounds (default 3). Both see the same contention
# from whatever else runs, which a sequential A/B cannot promise; each
# round prints the CPU milliseconds per publication of each server process
# (/proc/<pid>/stat, background work included) and their ratio.
#   .ci/with-postgres docs/bench/publications-ab.sh OLD_BIN NEW_BIN [C] [D] [R]
set -euo pipefail
cd "$(dirname "$0")/../.."
A=$(realpath "$1") B=$(realpath "$2") C=${3:-8} D=${4:-15} R=${5:-3}
: "${PG_URL:?run me under .ci/with-postgres}"
db="simul_$(date +%s)"
psql -qAt "$PG_URL" -c "CREATE DATABASE $db" >/dev/null
url="${PG_URL/\/postgres\?//$db?}"
tmp=$(mktemp -d)
pa_port=$((20000 + RANDOM % 20000)) pb_port=$((40001 + RANDOM % 20000))
go build -o "$tmp/pubload" ./docs/bench/pubload
start() { # bin port
  cp "$1" "$tmp/promoengine-$2"
  PROMO_DATABASE_URL="$url" PROMO_AUTO_MIGRATE=true PROMO_RATE_LIMIT=-1 PROMO_ADDR="127.0.0.1:$2" PROMO_LOG_LEVEL=warn \
    PROMO_BOOTSTRAP_APP_ID=bench PROMO_BOOTSTRAP_APP_TOKEN=bench "$tmp/promoengine-$2" >/dev/null 2>>"$tmp/server.log" &
  echo $!
}
pa=$(start "$A" "$pa_port"); for _ in $(seq 200); do curl -fs 127.0.0.1:"$pa_port"/healthz >/dev/null && break; sleep 0.1; done
pb=$(start "$B" "$pb_port"); for _ in $(seq 200); do curl -fs 127.0.0.1:"$pb_port"/healthz >/dev/null && break; sleep 0.1; done
trap 'kill $pa $pb 2>/dev/null || true; psql -qAt "$PG_URL" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
H=(-H "X-App-Id: bench" -H "X-App-Token: bench" -H "Content-Type: application/json")
curl -fs "${H[@]}" 127.0.0.1:"$pa_port"/v1/campaigns -d '{"name":"load","type":"STATIC","voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"code_config":{"length":10}},"vouchers_count":400000}' >/dev/null
until curl -fs "${H[@]}" 127.0.0.1:"$pa_port"/v1/campaigns/load | grep -q '"vouchers_generation_status":"DONE"'; do sleep 0.5; done
psql -qAt "$url" -c "VACUUM ANALYZE vouchers" -c "CHECKPOINT" >/dev/null
ticks() { awk '{print $14 + $15}' /proc/$1/stat; }
hz=$(getconf CLK_TCK)
for r in $(seq $R); do
  a0=$(ticks $pa) b0=$(ticks $pb)
  "$tmp/pubload" -url http://127.0.0.1:"$pa_port" -app-id bench -app-token bench -campaign load -clients "$C" -duration ${D}s > "$tmp/a.$r" &
  "$tmp/pubload" -url http://127.0.0.1:"$pb_port" -app-id bench -app-token bench -campaign load -clients "$C" -duration ${D}s > "$tmp/b.$r"
  wait
  a1=$(ticks $pa) b1=$(ticks $pb)
  na=$(grep -o '[0-9]* ok' "$tmp/a.$r" | grep -o '[0-9]*') nb=$(grep -o '[0-9]* ok' "$tmp/b.$r" | grep -o '[0-9]*')
  printf 'round %s: A %s publications, %.3f ms server CPU each; B %s publications, %.3f ms each; B/A %.3f\n' "$r" \
    "$na" "$(echo "($a1 - $a0) * 1000 / $hz / $na" | bc -l)" "$nb" "$(echo "($b1 - $b0) * 1000 / $hz / $nb" | bc -l)" \
    "$(echo "(($b1 - $b0) / $nb) / (($a1 - $a0) / $na)" | bc -l)"
  grep -h "p99" "$tmp/a.$r" "$tmp/b.$r" | sed 's/^/  /'
done
