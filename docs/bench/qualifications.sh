#!/usr/bin/env bash
# Benchmark: qualifications (POST /v1/qualifications, scenario ALL, a
# 50-item cart, limit 5) through the full HTTP stack on PostgreSQL.
#   .ci/with-postgres docs/bench/qualifications.sh [ACTIVE] [INACTIVE] [C] [D]
# ACTIVE active promotion tiers (default 1000) in campaigns of 50, each
# with 1–3 validation rules from a pool: an order-amount rule (always),
# a rule requiring one of 50 products (2 tiers in 3) and an audience rule
# the benchmark's customer does not match (1 tier in 3: customer.metadata
# tier is gold; the customer is silver); INACTIVE more tiers created
# disabled (default 0); 10,000 products in 100 AUTO_UPDATE collections
# (metadata.group); C concurrent clients (default 16) for D seconds
# (default 20). Prints the throughput and p50/p99 (redload).
# Growth: run with 100 0, 1000 0, 10000 0 and 100 9900 (the same
# total with 99% disabled): docs/benchmarks.md "Qualifications".
# PRODUCTS=n changes the catalogue's size; PPROF_ADDR=host:port writes a
# CPU profile of the load to /tmp/qual.cpu.pprof (PROFILE=path elsewhere).
# Prints the statements one qualification sends and redload's "cpu:" line
# (server, PostgreSQL, other processes); STATEMENTS=path keeps those
# statements' log lines. A smoke run:
#   PRODUCTS=200 .ci/with-postgres docs/bench/qualifications.sh 20 20 2 2
set -euo pipefail
cd "$(dirname "$0")/../.."
. docs/bench/lib.sh
ACTIVE=${1:-1000}
INACTIVE=${2:-0}
C=${3:-16}
D=${4:-20}
PRODUCTS=${PRODUCTS:-10000}
bench_init qualifications.sh
bench_pg
bench_db qual
bench_bin redload
bench_port
bench_start "$port" PROMO_PPROF_ADDR="${PPROF_ADDR:-}"
bench_wait "127.0.0.1:$port/healthz"
H=(-H "X-App-Id: bench" -H "X-App-Token: bench" -H "Content-Type: application/json")
api() { curl -fsS "${H[@]}" "127.0.0.1:$port$1" "${@:2}"; }

# The catalogue: 10,000 products p-0 … p-9999 (group g-<n mod 100>), and
# 100 collections, one per group.
seq 0 $((PRODUCTS - 1)) | sed 's/.*/{"source_id":"p-&","name":"Product &","price":1000,"metadata":{"group":"g-&"}}/' |
  awk -F'"g-' '{ split($2, a, "\""); printf "%s\"g-%d\"}}\n", $1, a[1] % 100 }' |
  xargs -d '\n' -P 8 -n 1 curl -fsS -o /dev/null "${H[@]}" "127.0.0.1:$port/v1/products" -d
for g in $(seq 0 99); do
  api /v1/product-collections -o /dev/null -d "{\"name\":\"group $g\",\"type\":\"AUTO_UPDATE\",
    \"filter\":{\"junction\":\"and\",\"metadata.group\":{\"conditions\":{\"\$is\":[\"g-$g\"]}}}}"
done
# The rule pool: 10 amount rules, 50 product rules, one audience rule.
rule() { api /v1/validation-rules -d "$1" | sed 's/.*"id":"\(val_[^"]*\)".*/\1/'; }
amount=(); product=()
for k in $(seq 0 9); do
  amount+=("$(rule "{\"name\":\"amount $k\",\"rules\":{\"1\":{\"name\":\"order.amount\",\"conditions\":{\"\$more_than\":[$((k * 1000))]}}}}")")
done
for k in $(seq 0 49); do
  product+=("$(rule "{\"name\":\"product $k\",\"rules\":{\"1\":{\"name\":\"product.id\",\"conditions\":{\"\$is\":[\"p-$((k * 7))\"]}}}}")")
done
gold=$(rule '{"name":"gold","rules":{"1":{"name":"customer.metadata.tier","conditions":{"$is":["gold"]}}}}')
api /v1/customers -o /dev/null -d '{"source_id":"shopper","metadata":{"tier":"silver"}}'
# Tiers, 50 per PROMOTION campaign; tier i's rules: amount i%10, product
# i%50 when i%3 ≥ 1, gold when i%3 = 2.
tiers() { # first count active
  local i=$1 end=$(($1 + $2)) camp=0
  while [ "$i" -lt "$end" ]; do
    local batch=() j
    for j in $(seq "$i" $((i + 49 < end - 1 ? i + 49 : end - 1))); do
      local rules="\"${amount[$((j % 10))]}\""
      [ $((j % 3)) -ge 1 ] && rules="$rules,\"${product[$((j % 50))]}\""
      [ $((j % 3)) -eq 2 ] && rules="$rules,\"$gold\""
      batch+=("{\"name\":\"tier $j\",\"active\":$3,\"action\":{\"discount\":{\"type\":\"AMOUNT\",\"amount_off\":$((100 + j % 900))}},\"validation_rules\":[$rules]}")
    done
    api /v1/campaigns -o /dev/null -d "{\"name\":\"promo $4 $i\",\"campaign_type\":\"PROMOTION\",\"type\":\"STATIC\",
      \"promotion\":{\"tiers\":[$(IFS=,; echo "${batch[*]}")]}}"
    i=$((j + 1))
  done
}
tiers 0 "$ACTIVE" true on
[ "$INACTIVE" -gt 0 ] && tiers "$ACTIVE" "$INACTIVE" false off
# Statistics of the finished set-up, as a production database has them
# (the load writes nothing): without them the products read by the cart
# are planned from a mid-set-up autovacuum's estimate and read every
# product of the project on each request.
psql -qAt "$url" -c "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null

# The cart: 50 lines p-0 … p-49 of 1000 each.
items=$(seq 0 49 | sed 's/.*/{"product_id":"p-&","quantity":1,"price":1000}/' | paste -sd, -)
echo "{\"customer\":{\"source_id\":\"shopper\"},\"order\":{\"items\":[$items]},\"options\":{\"limit\":5}}" > "$tmp/qualify.json"
api /v1/qualifications -d @"$tmp/qualify.json" > "$tmp/qualify.out"
grep -q '"object":"promotion_tier"' "$tmp/qualify.out" || { echo "nothing qualified:" >&2; head -c 2000 "$tmp/qualify.out" >&2; exit 1; }
# The statements one qualification sends (the second request: the first
# built the tier snapshot), from PostgreSQL's statement log.
api /v1/qualifications -o /dev/null -d @"$tmp/qualify.json"
psql -qAt "$url" -c "ALTER SYSTEM SET log_statement = 'all'" -c "SELECT pg_reload_conf()" >/dev/null
sleep 0.5
before=$(wc -l < "$pglog")
api /v1/qualifications -o /dev/null -d @"$tmp/qualify.json"
psql -qAt "$url" -c "ALTER SYSTEM RESET log_statement" -c "SELECT pg_reload_conf()" >/dev/null
# The request's connection is the one that read the project's
# qualification_version (background jobs log statements meanwhile).
tail -n +$((before + 1)) "$pglog" | grep -E 'LOG: +(statement|execute)' > "$tmp/log" || true
conn=$(grep -m 1 'qualification_version' "$tmp/log" | grep -o '\[[0-9]*\]' || echo none)
grep -F "$conn" "$tmp/log" > "$tmp/statements" || true
echo "statements per qualification: $(wc -l < "$tmp/statements")"
[ -z "${STATEMENTS:-}" ] || cp "$tmp/statements" "$STATEMENTS"
if [ -n "${PPROF_ADDR:-}" ]; then # a CPU profile of the load's middle (PPROF_ADDR=127.0.0.1:6061)
  (sleep 2; curl -s "http://$PPROF_ADDR/debug/pprof/profile?seconds=$((D > 6 ? D - 4 : 2))" -o "${PROFILE:-/tmp/qual.cpu.pprof}") &
fi
echo "qualifications: $ACTIVE active tiers, $INACTIVE disabled, $PRODUCTS products, $C clients, ${D}s"
"$tmp/redload" -url "http://127.0.0.1:$port" -app-id bench -app-token bench -clients "$C" -duration "${D}s" \
  -postmaster "$postmaster" -root $$ -label qualifications -path /v1/qualifications -body "$tmp/qualify.json" -expect '"object":"promotion_tier"'
