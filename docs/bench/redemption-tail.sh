#!/usr/bin/env bash
# The redemptions' tail (issue 29), A/B by configuration: one database
# (a campaign of C*64 unlimited codes, and the realistic redemption's
# campaign: codes limited to 100,000 uses each, one validation rule), the
# server restarted for each configuration on it, each running for D
# seconds at C clients (docs/bench/redload): the single-code stacked
# redemption of redemptions.sh (3.) and its realistic redemption (4b.:
# customer upserted by source_id with metadata, 5-item order, metadata);
# then pgbench's TPC-B with its per-transaction log (-l), whose p50 and p99
# show what the host's scheduling alone does to a tail at C clients.
#   .ci/with-postgres docs/bench/redemption-tail.sh C D CONFIG...
# A CONFIG is "base" or space-separated settings for the server, e.g.
# "GOGC=off", "PROMO_DB_MAX_OPEN=6", "PROMO_ADMIT_REDEMPTIONS=true", and
# BIN=path to run another binary (A/B against a commit). PROMO_BIN is the
# default binary (unset: the working tree is built).
set -euo pipefail
cd "$(dirname "$0")/../.."
. docs/bench/lib.sh
C=${1:?clients}; D=${2:?seconds}; shift 2
bench_init redemption-tail.sh
bench_pg
bench_db tail
bench_bin redload
bench_port
pid=
bin="$tmp/promoengine"
start() { # env...
  bench_server=$bin bench_start "$port" PROMO_PPROF_ADDR="${PPROF_ADDR:-}" "$@"
  pid=$bench_pid
  bench_wait "127.0.0.1:$port/healthz"
}
stop() { [ -z "$pid" ] || bench_stop "$pid"; pid=; }
start
H=(-H "X-App-Id: bench" -H "X-App-Token: bench" -H "Content-Type: application/json")
api() { curl -fsS "${H[@]}" "127.0.0.1:$port$1" "${@:2}"; }
api /v1/campaigns -d "{\"name\":\"redeem\",\"type\":\"STATIC\",\"vouchers_count\":$((C * 64)),
  \"voucher\":{\"type\":\"DISCOUNT_VOUCHER\",\"discount\":{\"type\":\"AMOUNT\",\"amount_off\":100},\"code_config\":{\"length\":10}}}" >/dev/null
api /v1/campaigns -d "{\"name\":\"mix\",\"type\":\"STATIC\",\"vouchers_count\":$((C * 64)),
  \"voucher\":{\"type\":\"DISCOUNT_VOUCHER\",\"discount\":{\"type\":\"PERCENT\",\"percent_off\":10},
  \"redemption\":{\"quantity\":100000},\"code_config\":{\"length\":10}}}" >/dev/null
rule=$(api /v1/validation-rules -d '{"name":"order over 10.00","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[1000]}},"logic":"1"}}' |
  sed 's/.*"id":"\(val_[^"]*\)".*/\1/')
mix_id=$(api /v1/campaigns/mix | sed 's/.*"id":"\(camp_[^"]*\)".*/\1/')
api "/v1/validation-rules/$rule/assignments" -d "{\"related_object_type\":\"campaign\",\"related_object_id\":\"$mix_id\"}" >/dev/null
for c in redeem mix; do until api "/v1/campaigns/$c" | grep -q '"vouchers_generation_status":"DONE"'; do sleep 0.5; done; done
for c in redeem mix; do
  psql -qAt "$url" -c "SELECT v.code FROM vouchers v JOIN campaigns c ON c.id = v.campaign_id WHERE c.name = '$c' ORDER BY random()" > "$tmp/$c.codes"
done
echo '{"redeemables":[{"object":"voucher","id":"{{CODE}}"}],"order":{"amount":10000}}' > "$tmp/redeem.json"
cat > "$tmp/mix.json" <<'JSON'
{"redeemables":[{"object":"voucher","id":"{{CODE}}"}],
 "customer":{"source_id":"shopper-{{CODE}}","name":"A Shopper","metadata":{"tier":"gold"}},
 "order":{"items":[{"product_id":"p1","quantity":2,"price":1500},{"product_id":"p2","quantity":1,"price":4000},
  {"product_id":"p3","quantity":3,"price":250},{"product_id":"p4","quantity":1,"price":9900},{"product_id":"p5","quantity":2,"price":120}]},
 "metadata":{"channel":"web"}}
JSON
psql -qAt "$url" -c "VACUUM ANALYZE vouchers" -c "CHECKPOINT" >/dev/null
bench_pgbench_db "$C"
stop
load() { # label path body codes
  psql -qAt "$url" -c "CHECKPOINT" >/dev/null
  "$tmp/redload" -url "http://127.0.0.1:$port" -app-id bench -app-token bench -clients "$C" -duration "${D}s" \
    -label "$1" -path "$2" -body "$3" -codes "$4" -expect '"result":"SUCCESS"' | grep -E 'ok in|latency'
}
tpcb() {
  psql -qAt "$bench_url" -c "CHECKPOINT" >/dev/null
  rm -f "$tmp"/pgbench_log.*
  (cd "$tmp" && "$pgbin/pgbench" -M prepared -c "$C" -j 2 -T "$D" -l "$bench_url" 2>/dev/null | grep -E '^tps')
  cat "$tmp"/pgbench_log.* | awk '{print $3/1000}' | sort -n | awk '{a[NR]=$1} END {printf "TPC-B latency: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, p99/p50 %.1f\n", a[int(NR*0.5)], a[int(NR*0.9)], a[int(NR*0.99)], a[int(NR*0.99)]/a[int(NR*0.5)]}'
}
for cfg in "$@"; do
  envs=()
  [ "$cfg" != base ] && read -r -a envs <<< "$cfg"
  bin="$tmp/promoengine"
  rest=()
  for x in "${envs[@]}"; do case $x in BIN=*) bin=${x#BIN=} ;; *) rest+=("$x") ;; esac; done
  start "${rest[@]}"
  echo "== $cfg (load $(cut -d' ' -f1 /proc/loadavg))"
  load redemptions /v1/redemptions "$tmp/redeem.json" "$tmp/redeem.codes"
  load realistic /v1/redemptions "$tmp/mix.json" "$tmp/mix.codes"
  stop
  tpcb
done
