#!/usr/bin/env bash
# Benchmark: promoengine's GraphQL next to PostGraphile 4 (Node, with one
# cluster worker per core: the same cores as ours) on the same PostgreSQL
# data, and GraphQL next to REST for one voucher.
#   .ci/with-postgres docs/bench/graphql.sh [D] [R] [V] [C]
# D seconds per load (default 5), R alternating rounds (default 3), a
# campaign of V vouchers (default 100,000), C customers with two
# publications each (default 200).
#
# Loads, each with wrk (Debian package wrk), 2 threads, 16 connections, the
# same request body every time; every load runs once on each server to
# warm it (not counted), then A and B alternate within each round:
#   list         ours  campaign(idOrName){ vouchers(first: 50){ edges{ node{ 10 fields } } } }
#                peer  campaignById(id){ vouchersByCampaignId(first: 50){ edges{ node{ the same } } } }
#   listpage     the same with what a paginating client asks: pageInfo
#                { hasNextPage endCursor } and totalCount
#   customers    a page of 20 customers with 5 publications each and their codes
#   publications a page of 20 publications with customer, codes and the codes' campaigns
#   voucher      REST GET /v1/vouchers/{code} vs GraphQL voucher(codeOrID) (both ours)
# Within a round the two servers alternate, ours first in odd rounds and
# PostGraphile first in even ones.
# It prints every round, the medians and the ratios, and for each load the
# CPU milliseconds per request the server (ours or Node) and PostgreSQL took.
# Then it counts the SQL statements one request of each nested list costs
# at page sizes 5 and 20 (equal counts: no statement per row).
# Our server runs without its per-key rate limit (PROMO_RATE_LIMIT=-1):
# PostGraphile has none, and 16 connections exceed the default in a second.
# PROMO_BIN=path runs that binary instead of building the working tree.
# PPROF=1 also writes a CPU profile of our server under the list load to
# /tmp/graphql-list.cpu.pprof and prints its top entries; PPROF=voucher,
# listpage, customers or publications does the same under that load
# (/tmp/graphql-<load>.cpu.pprof).
set -euo pipefail
cd "$(dirname "$0")/../.."
. docs/bench/lib.sh
D=${1:-5}
R=${2:-3}
V=${3:-100000}
C=${4:-200}
bench_init graphql.sh
command -v wrk >/dev/null || { echo "graphql.sh: needs wrk (apt-get install -y wrk)" >&2; exit 1; }
bench_db gql
bench_bin
(cd docs/bench/postgraphile && { [ -x node_modules/.bin/postgraphile ] || npm ci --no-audit --no-fund >/dev/null; })

# start_ours PORT WORKERS [PPROF_ADDR]: our server on the database ($bench_pid).
start_ours() { bench_start "$1" PROMO_WORKERS="$2" PROMO_PPROF_ADDR="${3:-}"; }

bench_port
pport=$((port + 1))
pprof="127.0.0.1:$((port + 2))"
start_ours "$port" 1 "$pprof"
ours=$bench_pid
bench_wait "127.0.0.1:$port/healthz"
base="http://127.0.0.1:$port"
H=(-H "X-App-Id: bench" -H "X-App-Token: bench" -H "Content-Type: application/json")

# The data: one STATIC campaign of V vouchers; C customers with two
# publications of one code each (through the API, so both servers read
# exactly what the service writes).
curl -fs "${H[@]}" "$base/v1/campaigns" -d '{"name":"load","type":"STATIC",
  "voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"code_config":{"length":10}},
  "vouchers_count":'"$V"'}' >/dev/null
until curl -fs "${H[@]}" "$base/v1/campaigns/load" | grep -q '"vouchers_generation_status":"DONE"'; do sleep 0.5; done
for i in $(seq "$C"); do
  for _ in 1 2; do
    curl -fs "${H[@]}" "$base/v1/publications" -d '{"campaign":{"name":"load"},"customer":{"source_id":"cust-'"$i"'"}}' >/dev/null
  done
done
psql -qAt "$url" -c "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
campaign=$(psql -qAt "$url" -c "SELECT id FROM campaigns WHERE name = 'load'")
code=$(psql -qAt "$url" -c "SELECT code FROM vouchers WHERE campaign_id = '$campaign' ORDER BY id LIMIT 1 OFFSET 500")

(cd docs/bench/postgraphile && exec node_modules/.bin/postgraphile -c "$url" -s public -n 127.0.0.1 -p "$pport" \
  --dynamic-json --disable-query-log --disable-graphiql --cluster-workers "$(nproc)" >"$tmp/postgraphile.log" 2>&1) &
peer=$!
pids+=("$peer")
peerurl="http://127.0.0.1:$pport/graphql"
bench_wait -H "Content-Type: application/json" -d '{"query":"{__typename}"}' "$peerurl"
# $peer is the Node master itself (the subshell execs it); load counts its
# cluster workers, its children, too (tree).

# Request bodies.
fields="id code type active createdAt startDate expirationDate redemptionQuantity redeemedQuantity metadata"
gql() { bench_gql "$1"; }
gql "{ campaign(idOrName: \"$campaign\") { vouchers(first: 50) { edges { node { $fields } } } } }" >"$tmp/list.ours"
gql "{ campaignById(id: \"$campaign\") { vouchersByCampaignId(first: 50) { edges { node { $fields } } } } }" >"$tmp/list.peer"
gql "{ campaign(idOrName: \"$campaign\") { vouchers(first: 50) { pageInfo { hasNextPage endCursor } totalCount edges { node { $fields } } } } }" >"$tmp/listpage.ours"
gql "{ campaignById(id: \"$campaign\") { vouchersByCampaignId(first: 50) { pageInfo { hasNextPage endCursor } totalCount edges { node { $fields } } } } }" >"$tmp/listpage.peer"
customers_ours() { echo "{ customerList(input: {limit: $1}) { data { id sourceID name email createdAt
  publications(first: 5) { edges { node { id createdAt voucherCodes } } } } } }"; }
customers_peer() { echo "{ allCustomers(first: $1, orderBy: [CREATED_AT_DESC, ID_DESC]) { nodes { id sourceId name email createdAt
  publicationsByCustomerId(first: 5, orderBy: ID_ASC) { nodes { id createdAt publicationVouchersByPublicationId { nodes { voucherByVoucherId { code } } } } } } } }"; }
publications_ours() { echo "{ publicationList(input: {limit: $1}) { data { id createdAt customer { id sourceID }
  vouchers(first: 3) { edges { node { code campaign { name } } } } } } }"; }
publications_peer() { echo "{ allPublications(first: $1, orderBy: [CREATED_AT_DESC, ID_DESC]) { nodes { id createdAt customerByCustomerId { id sourceId }
  publicationVouchersByPublicationId(first: 3) { nodes { voucherByVoucherId { code campaignByCampaignId { name } } } } } } }"; }
gql "$(customers_ours 20)" >"$tmp/customers.ours"
gql "$(customers_peer 20)" >"$tmp/customers.peer"
gql "$(publications_ours 20)" >"$tmp/publications.ours"
gql "$(publications_peer 20)" >"$tmp/publications.peer"
gql "{ voucher(codeOrID: \"$code\") { id code type category active createdAt updatedAt startDate expirationDate
  additionalInfo metadata isReferralCode holderID publishCount redemptionQuantity redeemedQuantity
  discount { type amountOff percentOff unitOff } campaignID campaign { id name } } }" >"$tmp/voucher.gql"

# Every body must answer data without errors before it is timed.
check() { # URL BODY [auth]
  local out
  if [ -n "${3:-}" ]; then out=$(curl -fs "${H[@]}" "$1" -d @"$2"); else out=$(curl -fs -H "Content-Type: application/json" "$1" -d @"$2"); fi
  if ! grep -q '"data"' <<<"$out" || grep -q '"errors"' <<<"$out"; then echo "graphql.sh: $2 answered: ${out:0:400}" >&2; exit 1; fi
}
for q in list listpage customers publications; do check "$base/graphql" "$tmp/$q.ours" auth; check "$peerurl" "$tmp/$q.peer"; done
check "$base/graphql" "$tmp/voucher.gql" auth
curl -fs "${H[@]}" "$base/v1/vouchers/$code" -o /dev/null

bench_req_lua
bench_pg

tree() { echo "$1" $(pgrep -P "$1" || true); } # a server and its workers (PostGraphile's cluster)
busy() { awk '/^cpu / {print $2+$3+$4+$7+$8+$9}' /proc/stat; } # all CPUs' non-idle ticks

# load NAME PID URL [BODY] [auth]: one wrk run; appends "rps server_ms pg_ms"
# to $tmp/res.NAME and also prints how many cores everything else on the
# machine (wrk, other users) kept busy meanwhile.
load() {
  local name=$1 pid=$2 u=$3 body=${4:-} auth=${5:-} s0 s1 p0 p1 b0 b1
  s0=$(bench_ticks $(tree "$pid")); p0=$(bench_pgticks); b0=$(busy)
  BODY=$body APP_ID=${auth:+bench} APP_TOKEN=${auth:+bench} bench_wrk "$name" "$u"
  s1=$(bench_ticks $(tree "$pid")); p1=$(bench_pgticks); b1=$(busy)
  awk -v r="$wrk_rps" -v n="$wrk_n" -v s=$((s1 - s0)) -v p=$((p1 - p0)) -v hz="$hz" \
    'BEGIN { printf "%.0f %.2f %.2f\n", r, s * 1000 / hz / n, p * 1000 / hz / n }' | tee -a "$tmp/res.$name" | tr -d '\n'
  awk -v o=$((b1 - b0 - (s1 - s0) - (p1 - p0))) -v hz="$hz" -v d="$D" 'BEGIN { printf "   (others: %.1f cores)\n", o / hz / d }'
}

# warm URL [BODY] [auth]: one wrk run of D seconds that is not counted.
warm() { env ${2:+BODY=$2} ${3:+APP_ID=bench APP_TOKEN=bench} wrk -t2 -c16 -d"${D}s" -s "$tmp/req.lua" "$1" >/dev/null; }
# Both servers run every load once before the rounds: Node compiles
# PostGraphile's hot paths during its first seconds of a query, so a cold
# first round would flatter the ratio (2026-11-25: our list 2.15-2.58x a
# cold PostGraphile, 1.68-1.97x a warm one).
echo "== warm-up: every load once on each server, ${D}s each (not counted)"
for q in list listpage customers publications; do warm "$base/graphql" "$tmp/$q.ours" auth; warm "$peerurl" "$tmp/$q.peer"; done
warm "$base/v1/vouchers/$code" "" auth
warm "$base/graphql" "$tmp/voucher.gql" auth

echo "== $R rounds of ${D}s, wrk -t2 -c16; columns: req/s, server CPU ms/req, PostgreSQL CPU ms/req (of $(nproc) cores)"
for r in $(seq "$R"); do
  for q in list listpage customers publications; do
    if [ $((r % 2)) -eq 1 ]; then
      echo -n "round $r $q ours:  "; load "$q.ours" "$ours" "$base/graphql" "$tmp/$q.ours" auth
      echo -n "round $r $q peer:  "; load "$q.peer" "$peer" "$peerurl" "$tmp/$q.peer"
    else
      echo -n "round $r $q peer:  "; load "$q.peer" "$peer" "$peerurl" "$tmp/$q.peer"
      echo -n "round $r $q ours:  "; load "$q.ours" "$ours" "$base/graphql" "$tmp/$q.ours" auth
    fi
  done
  echo -n "round $r voucher REST:    "; load voucher.rest "$ours" "$base/v1/vouchers/$code" "" auth
  echo -n "round $r voucher GraphQL: "; load voucher.gql "$ours" "$base/graphql" "$tmp/voucher.gql" auth
done

# paired A B: the median over rounds of A's req/s over B's in the same round
# (robust to the load of other users changing between rounds), and the
# ratio of their medians of CPU per request, server plus PostgreSQL (what
# the throughput ratio would be on an otherwise idle machine with the CPU
# as the bottleneck).
paired() { paste -d' ' "$tmp/res.$1" "$tmp/res.$2" | awk '{ print $1 / $4 }' | median; }
cpu() { awk '{ print $2 + $3 }' "$tmp/res.$1" | median; }
echo "== medians (req/s; server CPU ms/req; PostgreSQL CPU ms/req); ratios: of medians, per round, of CPU per request"
for q in list listpage customers publications; do
  printf '%-13s ours %5s (%s; %s)  PostGraphile %5s (%s; %s)  ratio %.2f, per round %.2f, CPU %.2f\n' "$q" \
    "$(bench_col "$q.ours" 1)" "$(bench_col "$q.ours" 2)" "$(bench_col "$q.ours" 3)" \
    "$(bench_col "$q.peer" 1)" "$(bench_col "$q.peer" 2)" "$(bench_col "$q.peer" 3)" \
    "$(echo "$(bench_col "$q.ours" 1) / $(bench_col "$q.peer" 1)" | bc -l)" "$(paired "$q.ours" "$q.peer")" \
    "$(echo "$(cpu "$q.peer") / $(cpu "$q.ours")" | bc -l)"
done
printf '%-13s REST %5s (%s; %s)  GraphQL %5s (%s; %s)  GraphQL/REST %.2f, per round %.2f, CPU %.2f\n' voucher \
  "$(bench_col voucher.rest 1)" "$(bench_col voucher.rest 2)" "$(bench_col voucher.rest 3)" \
  "$(bench_col voucher.gql 1)" "$(bench_col voucher.gql 2)" "$(bench_col voucher.gql 3)" \
  "$(echo "$(bench_col voucher.gql 1) / $(bench_col voucher.rest 1)" | bc -l)" "$(paired voucher.gql voucher.rest)" \
  "$(echo "$(cpu voucher.rest) / $(cpu voucher.gql)" | bc -l)"

if [ -n "${PPROF:-}" ]; then
  load=list body="$tmp/list.ours"
  case "$PPROF" in
  voucher) load=voucher body="$tmp/voucher.gql" ;;
  listpage | customers | publications) load=$PPROF body="$tmp/$PPROF.ours" ;;
  esac
  (sleep 1; curl -fs "http://$pprof/debug/pprof/profile?seconds=$((D > 3 ? D - 2 : 1))" -o "/tmp/graphql-$load.cpu.pprof") &
  BODY="$body" APP_ID=bench APP_TOKEN=bench wrk -t2 -c16 -d"${D}s" -s "$tmp/req.lua" "$base/graphql" >/dev/null
  wait $!
  echo "== CPU profile of the $load load: /tmp/graphql-$load.cpu.pprof"
  go tool pprof -top -nodecount=25 "$tmp/promoengine" "/tmp/graphql-$load.cpu.pprof" 2>/dev/null | sed -n '4,35p'
fi

# Statements per request: a second server whose connections log every
# statement (log_statement = all for this database, new sessions only).
logfile=$pglog
if [ -r "$logfile" ]; then
  psql -qAt "$PG_URL" -c "ALTER DATABASE $db SET log_statement = 'all'" >/dev/null
  cport=$((port + 3))
  start_ours "$cport" 0
  bench_wait "127.0.0.1:$cport/healthz"
  statements() { # BODY: statements the request caused, after a warm-up request
    curl -fs "${H[@]}" "127.0.0.1:$cport/graphql" -d @"$1" >/dev/null
    sleep 0.3
    local before after
    before=$(grep -c "" "$logfile")
    curl -fs "${H[@]}" "127.0.0.1:$cport/graphql" -d @"$1" >/dev/null
    sleep 0.3
    after=$(tail -n +"$((before + 1))" "$logfile" | grep -cE "LOG:  (statement|execute)")
    echo "$after"
  }
  echo "== SQL statements per request of our server (page of 5 / page of 20)"
  for q in customers publications; do
    gql "$("${q}_ours" 5)" >"$tmp/$q.5"
    gql "$("${q}_ours" 20)" >"$tmp/$q.20"
    printf '%-13s %s / %s\n' "$q" "$(statements "$tmp/$q.5")" "$(statements "$tmp/$q.20")"
  done
  psql -qAt "$PG_URL" -c "ALTER DATABASE $db RESET log_statement" >/dev/null
else
  echo "== (no readable PostgreSQL log at $logfile: statement counts skipped)"
fi
