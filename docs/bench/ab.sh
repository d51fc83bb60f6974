#!/usr/bin/env bash
# A/B benchmark of two builds on one PostgreSQL database, alternating:
# publications (POST /v1/publications, pubload) and single-code
# redemptions (POST /v1/vouchers/{code}/redemption, redload, each client
# cycling through its own 64 codes of a 100,000-code campaign) and points
# added to one loyalty card by every client (POST
# /v1/loyalties/members/{code}/balance: one hot row), R rounds
# (default 3) of D seconds per load (default 10) at C clients (default 16).
# Round r runs A then B when r is odd, B then A when it is even; each side
# gets a fresh server process on the same database and 2 s of warm-up load.
# Prints every sample and, per load, the median of each side and B/A.
# POINTS_ONLY=1 runs only the points load (2 s of it as warm-up).
#   .ci/with-postgres docs/bench/ab.sh OLD_BIN NEW_BIN [C] [D] [R]
set -euo pipefail
cd "$(dirname "$0")/../.."
A=$(realpath "$1") B=$(realpath "$2")
C=${3:-16} D=${4:-10} R=${5:-3}
: "${PG_URL:?run me under .ci/with-postgres}"
db="ab_$(date +%s)"
psql -qAt "$PG_URL" -c "CREATE DATABASE $db" >/dev/null
url="${PG_URL/\/postgres\?//$db?}"
tmp=$(mktemp -d)
go build -o "$tmp/pubload" ./docs/bench/pubload
go build -o "$tmp/redload" ./docs/bench/redload
port=$((20000 + RANDOM % 20000))
pid=
start() { # binary
  PROMO_DATABASE_URL="$url" PROMO_AUTO_MIGRATE=true PROMO_RATE_LIMIT=-1 PROMO_ADDR="127.0.0.1:$port" PROMO_LOG_LEVEL=warn \
    PROMO_BOOTSTRAP_APP_ID=bench PROMO_BOOTSTRAP_APP_TOKEN=bench "$1" >/dev/null 2>>"$tmp/server.log" &
  pid=$!
  for _ in $(seq 200); do curl -fs "127.0.0.1:$port/healthz" >/dev/null && return 0; sleep 0.1; done
  echo "server did not start:" >&2; tail -n 20 "$tmp/server.log" >&2; exit 1
}
stop() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=; }
cleanup() {
  stop
  psql -qAt "$PG_URL" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# Set-up with the old build (it migrates the database; the new one must
# start on it too, which is itself part of the check).
start "$A"
H=(-H "X-App-Id: bench" -H "X-App-Token: bench" -H "Content-Type: application/json")
api() { curl -fsS "${H[@]}" "127.0.0.1:$port$1" "${@:2}"; }
api /v1/campaigns -d '{"name":"load","type":"STATIC","vouchers_count":300000,
  "voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"code_config":{"length":10}}}' >/dev/null
api /v1/campaigns -d '{"name":"redeem","type":"STATIC","vouchers_count":100000,
  "voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"code_config":{"length":10}}}' >/dev/null
until api /v1/campaigns/load | grep -q '"vouchers_generation_status":"DONE"' &&
  api /v1/campaigns/redeem | grep -q '"vouchers_generation_status":"DONE"'; do sleep 0.5; done
psql -qAt "$url" -c "SELECT v.code FROM vouchers v JOIN campaigns c ON c.id = v.campaign_id
  WHERE c.name = 'redeem' ORDER BY random() LIMIT $((C * 64))" > "$tmp/redeem.codes"
echo '{"order":{"amount":10000}}' > "$tmp/redeem-one.json"
api /v1/loyalties -d '{"name":"points","vouchers_count":1,
  "voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":0},"code_config":{"length":12}}}' >/dev/null
until api /v1/loyalties/points | grep -q '"vouchers_generation_status":"DONE"'; do sleep 0.5; done
api /v1/loyalties/points/members -d '{"customer":{"source_id":"points-holder"}}' |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])' > "$tmp/card.codes"
echo '{"points":1}' > "$tmp/points.json"
psql -qAt "$url" -c "VACUUM ANALYZE vouchers" -c "CHECKPOINT" >/dev/null
stop

lat() { echo "$(grep -o 'p50 [0-9.]* ms' "$1" | head -n 1), $(grep -o 'p99 [0-9.]* ms' "$1" | head -n 1)"; }
rate() { grep -o '= [0-9]*/s' | head -n 1 | grep -o '[0-9]*'; }
side() { # label binary round
  start "$2"
  if [ -n "${POINTS_ONLY:-}" ]; then
    "$tmp/redload" -url "http://127.0.0.1:$port" -app-id bench -app-token bench -clients "$C" -duration 2s \
      -label points -path '/v1/loyalties/members/{{CODE}}/balance' -body "$tmp/points.json" -codes "$tmp/card.codes" >/dev/null
    psql -qAt "$url" -c "CHECKPOINT" >/dev/null
    "$tmp/redload" -url "http://127.0.0.1:$port" -app-id bench -app-token bench -clients "$C" -duration "${D}s" \
      -label points -path '/v1/loyalties/members/{{CODE}}/balance' -body "$tmp/points.json" -codes "$tmp/card.codes" \
      -expect '"object":"balance"' > "$tmp/pts.txt"
    stop
    echo "round $3 $1: points on one card $(rate < "$tmp/pts.txt")/s ($(lat "$tmp/pts.txt"))"
    echo "$1 0 0 $(rate < "$tmp/pts.txt")" >> "$tmp/samples"
    return
  fi
  "$tmp/pubload" -url "http://127.0.0.1:$port" -app-id bench -app-token bench -campaign load -clients "$C" -duration 2s >/dev/null
  psql -qAt "$url" -c "CHECKPOINT" >/dev/null
  "$tmp/pubload" -url "http://127.0.0.1:$port" -app-id bench -app-token bench -campaign load -clients "$C" -duration "${D}s" > "$tmp/pub.txt"
  psql -qAt "$url" -c "CHECKPOINT" >/dev/null
  "$tmp/redload" -url "http://127.0.0.1:$port" -app-id bench -app-token bench -clients "$C" -duration "${D}s" \
    -label redemptions -path '/v1/vouchers/{{CODE}}/redemption' -body "$tmp/redeem-one.json" -codes "$tmp/redeem.codes" \
    -expect '"result":"SUCCESS"' > "$tmp/red.txt"
  psql -qAt "$url" -c "CHECKPOINT" >/dev/null
  "$tmp/redload" -url "http://127.0.0.1:$port" -app-id bench -app-token bench -clients "$C" -duration "${D}s" \
    -label points -path '/v1/loyalties/members/{{CODE}}/balance' -body "$tmp/points.json" -codes "$tmp/card.codes" \
    -expect '"object":"balance"' > "$tmp/pts.txt"
  stop
  local p r q
  p=$(rate < "$tmp/pub.txt") r=$(rate < "$tmp/red.txt") q=$(rate < "$tmp/pts.txt")
  echo "round $3 $1: publications $p/s ($(lat "$tmp/pub.txt")), redemptions $r/s ($(lat "$tmp/red.txt")), points on one card $q/s ($(lat "$tmp/pts.txt"))"
  echo "$1 $p $r $q" >> "$tmp/samples"
}
for r in $(seq "$R"); do
  if [ $((r % 2)) = 1 ]; then side A "$A" "$r"; side B "$B" "$r"; else side B "$B" "$r"; side A "$A" "$r"; fi
done
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
for col in 2:publications 3:redemptions 4:points-one-card; do
  n=${col%%:*} name=${col#*:}
  a=$(awk -v c="$n" '$1=="A"{print $c}' "$tmp/samples" | median)
  b=$(awk -v c="$n" '$1=="B"{print $c}' "$tmp/samples" | median)
  echo "$name: A median $a/s, B median $b/s, B/A $(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.2f", b/a}')"
done
