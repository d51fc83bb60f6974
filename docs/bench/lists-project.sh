#!/usr/bin/env bash
# Benchmark: the project-wide lists that can hold millions of rows —
# customers, publications, redemptions, orders (and, when asked for,
# vouchers) — as pages of 50 in a small and a large project of one
# database: page 1 and a deep page, with the counts a paginating client
# asks for. The sibling of lists.sh (a campaign's vouchers), with its
# conventions.
#   .ci/with-postgres docs/bench/lists-project.sh [D] [R] [S] [L]
# D seconds per load (default 5), R alternating rounds (default 3), a small
# project of S rows per list (default 10,000) and a large one of L
# (default 1,000,000). A smoke run on a small dataset:
#   .ci/with-postgres docs/bench/lists-project.sh 2 1 2000 20000
# LISTS=customers,publications,redemptions,orders (the default) chooses the
# lists; "vouchers" adds the project's vouchers (GET /v1/vouchers without a
# campaign: a capped count, not the campaign's counter), cloned S and L
# times too (without it each project gets a pool of POOL vouchers, default
# 1,000, for its publications and redemptions to point at; on a vouchers
# table that small PostgreSQL reads a page's vouchers with a sequential
# scan of the 2,000: POOL=100000 gives a table where it reads them by key,
# at the price of the disk space).
#
# The data: in each project, a handful of rows made through the API (a
# STATIC campaign of 5 codes, 3 customers, a publication, a redemption with
# an order, an order), then each table cloned by SQL from its API-made row
# (INSERT … SELECT over generate_series: IDs of the same prefix and length,
# the row's own project, created_at one second apart backwards, customers
# and vouchers of the pool spread over the clones), VACUUM ANALYZE after.
#
# Loads, each with wrk (Debian package wrk), 2 threads, 16 connections, the
# same request every time, on both projects in the same round (the small
# one first in odd rounds, the large one first in even rounds); for each
# list X (customers, publications, redemptions, orders, vouchers):
#   X.rest1    GET /v1/X?limit=50 (page 1, with total)
#   X.rest99   GET /v1/X?limit=50&page=99 (the deepest page v1 allows; with
#              S < 5,000 the small project's last full page, on both)
#   X.list99   XList(input: {limit: 50, page: 99}){ total data{ fields } }
#   X.gql1     X(first: 50){ totalCount pageInfo{ hasNextPage endCursor }
#              edges{ node{ fields } } } (not for orders: no connection)
#   X.gqldeep  the same after the cursor of the project's middle row by id
# Every request must answer a page of 50 before it is timed. It prints every
# round (req/s, p50 ms, and the CPU per request of the server and of
# PostgreSQL from /proc: "cpu:"), then, per load, the medians and the ratio
# large/small of the median p50 (target ≤ 1.3, docs/benchmarks.md).
# EXPLAIN=1 then prints the plans PostgreSQL ran for each request on each
# project (auto_explain with ANALYZE: rows read per plan node).
# SETUP_SQL='…' runs SQL on the database after the data is cloned (before
# VACUUM ANALYZE; e.g. an index to weigh).
# PROMO_BIN=path runs that binary instead of building the working tree.
# PROMO_BIN_B=path A/B: a second server (B, that binary; A is PROMO_BIN or
# the working tree) on the same database; every load runs on both, A then B
# in odd rounds, B then A in even ones, and the medians add B's and the
# ratio B/A of the CPU per request (server + PostgreSQL) per load and project.
# PPROF_ADDR=127.0.0.1:6063 serves the server's pprof there and, in round 1,
# writes a CPU profile of each load on the large project (its first D-1
# seconds) to $PPROF_DIR/lists-project.LOAD.pprof (PPROF_DIR default /tmp).
set -euo pipefail
cd "$(dirname "$0")/../.."
. docs/bench/lib.sh
D=${1:-5}
R=${2:-3}
S=${3:-10000}
L=${4:-1000000}
LISTS=${LISTS:-customers,publications,redemptions,orders}
bench_init lists-project.sh
command -v wrk >/dev/null || { echo "lists-project.sh: needs wrk (apt-get install -y wrk)" >&2; exit 1; }
for l in ${LISTS//,/ }; do
  case $l in customers | publications | redemptions | orders | vouchers) ;;
  *) echo "lists-project.sh: unknown list $l" >&2; exit 1 ;; esac
done
has() { [[ ",$LISTS," == *",$1,"* ]]; }

bench_db listsp
bench_bin
bench_port
bench_start "$port" PROMO_PPROF_ADDR="${PPROF_ADDR:-}"
ours=$bench_pid
base="http://127.0.0.1:$port"
bench_wait "$base/healthz"
declare -A SRV PORT
SRV[a]=$ours PORT[a]=$port
sides="a"
if [ -n "${PROMO_BIN_B:-}" ]; then
  cp "$PROMO_BIN_B" "$tmp/promoengine_b"
  bench_bins+=(promoengine_b)
  PORT[b]=$((port + 2))
  bench_server="$tmp/promoengine_b" bench_start "${PORT[b]}" PROMO_AUTO_MIGRATE=false
  SRV[b]=$bench_pid
  bench_wait "http://127.0.0.1:${PORT[b]}/healthz"
  sides="a b"
fi
side=a
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

# Two projects, each with its own server-side key.
declare -A KEY TOKEN PROJ SIZE
SIZE[small]=$S
SIZE[large]=$L
for c in small large; do
  out=$(curl -fs -H "X-Management-Id: benchm" -H "X-Management-Token: benchm" -H "Content-Type: application/json" \
    "$base/management/v1/projects" -d '{"name":"'$c'"}')
  PROJ[$c]=$(json 'd["id"]' <<<"$out")
  KEY[$c]=$(json 'd["server_side_key"]["app_id"]' <<<"$out")
  TOKEN[$c]=$(json 'd["server_side_key"]["app_token"]' <<<"$out")
done
api() { # api PROJECT METHOD PATH [BODY]
  curl -fsS -X "$2" -H "X-App-Id: ${KEY[$1]}" -H "X-App-Token: ${TOKEN[$1]}" -H "Content-Type: application/json" \
    "$base$3" ${4:+-d "$4"}
}

# A handful of real rows per project, made by the service.
for c in small large; do
  api $c POST /v1/campaigns '{"name":"bench","type":"STATIC",
    "voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"code_config":{"length":12}},
    "vouchers_count":5}' >/dev/null
  until api $c GET /v1/campaigns/bench | grep -q '"vouchers_generation_status":"DONE"'; do sleep 0.5; done
  for i in 1 2 3; do
    api $c POST /v1/customers '{"source_id":"real-'$i'","name":"Customer '$i'","email":"real'$i'@example.com",
      "phone":"+48100200300","address":{"city":"Warsaw","country":"PL"},"metadata":{"tier":"gold"}}' >/dev/null
  done
  api $c POST /v1/publications '{"campaign":{"name":"bench"},"customer":{"source_id":"real-1"},"metadata":{"channel":"mail"}}' >/dev/null
  code=$(psql -qAt "$url" -c "SELECT code FROM vouchers WHERE project_id = '${PROJ[$c]}' AND holder_id IS NULL ORDER BY id LIMIT 1")
  api $c POST /v1/redemptions '{"redeemables":[{"object":"voucher","id":"'"$code"'"}],"customer":{"source_id":"real-2"},
    "order":{"source_id":"red-order","amount":20000,"items":[{"source_id":"sku-1","quantity":2,"price":10000}]},"metadata":{"shop":"web"}}' >/dev/null
  api $c POST /v1/orders '{"source_id":"real-order","amount":15000,"status":"PAID","customer":{"source_id":"real-3"},
    "items":[{"source_id":"sku-2","quantity":1,"price":15000}],"metadata":{"shop":"web"}}' >/dev/null
done

# bench_clone(table, template id, n, {column: SQL expression of g}) copies
# the template row n times in one INSERT … SELECT over generate_series.
psql -qAt "$url" >/dev/null <<'SQL'
CREATE FUNCTION bench_clone(tbl text, tmpl text, n int, sets jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE cols text; exprs text;
BEGIN
  SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position),
         string_agg(COALESCE(sets->>column_name, 't.' || quote_ident(column_name)), ', ' ORDER BY ordinal_position)
    INTO cols, exprs
    FROM information_schema.columns WHERE table_name = tbl AND table_schema = current_schema();
  EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM %I t, generate_series(1, $2) AS s(g) WHERE t.id = $1',
    tbl, cols, exprs, tbl) USING tmpl, n;
END $$;
SQL
# newid TABLE PREFIX TAG EXPR: an ID of the length of TABLE's API-made IDs,
# unique per project (TAG) and clone (EXPR, an expression of g).
newid() {
  local len; len=$(psql -qAt "$url" -c "SELECT max(length(id)) FROM $1")
  echo "'$2' || substr(md5('$3' || ($4)) || md5('$3/' || ($4)), 1, $((len - ${#2})))"
}
t0=$(date +%s)
for c in small large; do
  n=${SIZE[$c]} p=${PROJ[$c]} tag=${c:0:1}
  vp=${POOL:-1000}
  has vouchers && vp=$n
  one() { psql -qAt "$url" -c "SELECT id FROM $1 WHERE project_id = '$p' ORDER BY created_at LIMIT 1"; }
  back="t.created_at - g * interval '1 second'"
  cust="$(newid customers cust_ $tag "g % $n + 1")"
  vouch="$(newid vouchers v_ $tag-v "g % $vp + 1")"
  code="'BULK$tag' || (g % $vp + 1)"
  psql -qAt "$url" -v ON_ERROR_STOP=1 >/dev/null <<SQL
SET statement_timeout = 0;
SELECT bench_clone('vouchers', '$(psql -qAt "$url" -c "SELECT id FROM vouchers WHERE project_id = '$p' ORDER BY id LIMIT 1")', $vp,
  jsonb_build_object('id', \$\$$(newid vouchers v_ "$tag-v" g)\$\$, 'code', \$\$'BULK$tag' || g\$\$, 'created_at', \$\$$back\$\$,
    'holder_id', 'NULL', 'redeemed_quantity', '0'));
UPDATE campaigns SET vouchers_count = vouchers_count + $vp WHERE project_id = '$p' AND name = 'bench';
SELECT bench_clone('customers', '$(one customers)', $n,
  jsonb_build_object('id', \$\$$(newid customers cust_ $tag g)\$\$, 'source_id', \$\$'bulk-' || g\$\$,
    'email', \$\$'bulk' || g || '@example.com'\$\$, 'name', \$\$'Customer ' || g\$\$, 'created_at', \$\$$back\$\$));
SELECT bench_clone('publications', '$(one publications)', $n,
  jsonb_build_object('id', \$\$$(newid publications pub_ $tag g)\$\$, 'customer_id', \$\$$cust\$\$, 'source_id', 'NULL',
    'voucher_ids', \$\$jsonb_build_array($vouch)\$\$, 'created_at', \$\$$back\$\$));
INSERT INTO publication_vouchers (publication_id, voucher_id)
  SELECT id, voucher_ids->>0 FROM publications WHERE project_id = '$p' AND source_id IS NULL AND id LIKE 'pub_%'
  ON CONFLICT DO NOTHING;
SELECT bench_clone('redemptions', '$(one redemptions)', $n,
  jsonb_build_object('id', \$\$$(newid redemptions r_ $tag g)\$\$, 'customer_id', \$\$$cust\$\$, 'voucher_id', \$\$$vouch\$\$,
    'voucher_code', \$\$$code\$\$, 'tracking_id', \$\$'track-' || (g % $n + 1)\$\$, 'created_at', \$\$$back\$\$));
SELECT bench_clone('orders', '$(one orders)', $n,
  jsonb_build_object('id', \$\$$(newid orders ord_ $tag g)\$\$, 'customer_id', \$\$$cust\$\$, 'source_id', \$\$'bulk-' || g\$\$,
    'created_at', \$\$$back\$\$));
SQL
done
[ -z "${SETUP_SQL:-}" ] || psql -qAt -v ON_ERROR_STOP=1 "$url" -c "$SETUP_SQL" >/dev/null
psql -qAt "$url" -c "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
echo "== data: small S=$S, large L=$L rows per list, cloned in $(($(date +%s) - t0)) s"
psql -qAt "$url" -F' ' -c "SELECT 'rows', p.name, (SELECT count(*) FROM customers WHERE project_id = p.id),
  (SELECT count(*) FROM publications WHERE project_id = p.id), (SELECT count(*) FROM redemptions WHERE project_id = p.id),
  (SELECT count(*) FROM orders WHERE project_id = p.id), (SELECT count(*) FROM vouchers WHERE project_id = p.id)
  FROM projects p WHERE p.name IN ('small', 'large') ORDER BY p.name DESC" | sed 's/^/   customers publications redemptions orders vouchers: /'

# The requests, per list and project.
gqlbody() { bench_gql "$1"; }
declare -A TABLE FIELDS
TABLE=([customers]=customers [publications]=publications [redemptions]=redemptions [orders]=orders [vouchers]=vouchers)
FIELDS=([customers]="id sourceID name email phone createdAt updatedAt metadata"
  [publications]="id createdAt customerID trackingID channel result campaignID metadata voucherCodes"
  [redemptions]="id createdAt result status voucherCode campaignID customerID amount trackingID metadata"
  [orders]="id createdAt sourceID status amount totalAmount customerID metadata"
  [vouchers]="id code type active createdAt startDate expirationDate redemptionQuantity redeemedQuantity metadata")
gqlq() { # gqlq PROJECT QUERY: the cursor or page answer of a GraphQL query
  curl -fs -H "X-App-Id: ${KEY[$1]}" -H "X-App-Token: ${TOKEN[$1]}" -H "Content-Type: application/json" "$base/graphql" -d "$(gqlbody "$2")"
}
# The deep page: 99, the deepest v1 allows, or the small project's last
# full page when it has fewer than 5,000 rows (a smoke run).
deep=$((S / 50 < 99 ? S / 50 : 99))
loads=""
for l in ${LISTS//,/ }; do
  f=${FIELDS[$l]}
  single=${l%s}
  loads+=" $l.rest1 $l.rest99 $l.list99"
  [ "$l" = orders ] || loads+=" $l.gql1 $l.gqldeep"
  for c in small large; do
    p=${PROJ[$c]}
    echo "$base/v1/$l?limit=50" >"$tmp/$l.rest1.$c"
    echo "$base/v1/$l?limit=50&page=$deep" >"$tmp/$l.rest99.$c"
    gqlbody "{ ${single}List(input: {limit: 50, page: $deep}) { total data { $f } } }" >"$tmp/$l.list99.$c"
    [ "$l" = orders ] && continue
    n=$(psql -qAt "$url" -c "SELECT count(*) FROM ${TABLE[$l]} WHERE project_id = '$p'")
    mid=$(psql -qAt "$url" -c "SELECT id FROM ${TABLE[$l]} WHERE project_id = '$p' ORDER BY id OFFSET $((n / 2)) LIMIT 1")
    cursor=$(gqlq $c "{ $l(first: 1, where: {idGTE: \"$mid\"}) { pageInfo { endCursor } } }" | json "d['data']['$l']['pageInfo']['endCursor']")
    page="totalCount pageInfo { hasNextPage endCursor } edges { node { $f } }"
    gqlbody "{ $l(first: 50) { $page } }" >"$tmp/$l.gql1.$c"
    gqlbody "{ $l(first: 50, after: \"$cursor\") { $page } }" >"$tmp/$l.gqldeep.$c"
  done
done

# Every request must answer a page of 50 (and a total where it has one)
# before it is timed: a wrong URL or query fails the script.
check='
import json, sys
d = json.load(sys.stdin)
if "errors" in d: sys.exit("errors: %s" % json.dumps(d["errors"])[:300])
def pages(v):
    if isinstance(v, list): yield v
    if isinstance(v, dict):
        for x in v.values(): yield from pages(x)
def totals(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if k in ("total", "totalCount"): yield x
            else: yield from totals(x)
longest = max((len(p) for p in pages(d)), default=0)
t = list(totals(d))
if longest != 50 or not t or not all(isinstance(x, int) and x > 0 for x in t):
    sys.exit("not a page of 50 with a total: longest list %d, totals %s" % (longest, t))
'
for q in $loads; do
  for c in small large; do
    if [[ $q == *.rest* ]]; then
      out=$(curl -fsS -H "X-App-Id: ${KEY[$c]}" -H "X-App-Token: ${TOKEN[$c]}" "$(cat "$tmp/$q.$c")") || { echo "lists-project.sh: $q.$c failed" >&2; exit 1; }
    else
      out=$(curl -fsS -H "X-App-Id: ${KEY[$c]}" -H "X-App-Token: ${TOKEN[$c]}" -H "Content-Type: application/json" "$base/graphql" -d @"$tmp/$q.$c") \
        || { echo "lists-project.sh: $q.$c failed" >&2; exit 1; }
    fi
    python3 -c "$check" <<<"$out" || { echo "lists-project.sh: $q.$c answered: ${out:0:400}" >&2; exit 1; }
  done
done

bench_req_lua
bench_pg

# load NAME.PROJECT: one wrk run on server $side; appends "rps p50_ms
# server_ms pg_ms" (CPU milliseconds per request) to $tmp/res.NAME.PROJECT
# (…PROJECT.b for server B).
load() {
  local name=$1 c=${1##*.} s0 g0 s1 g1 sfx="" url0 prof=""
  [ "$side" = a ] || sfx=.$side
  url0="http://127.0.0.1:${PORT[$side]}"
  s0=$(bench_ticks "${SRV[$side]}") g0=$(bench_pgticks)
  if [ -n "${PPROF_ADDR:-}" ] && [ "$side" = a ] && [ "${round:-0}" = 1 ] && [ "$c" = large ] && [ "$D" -gt 1 ]; then
    mkdir -p "${PPROF_DIR:-/tmp}"
    prof="${PPROF_DIR:-/tmp}/lists-project.${name%.*}$sfx.pprof"
    curl -fs "http://$PPROF_ADDR/debug/pprof/profile?seconds=$((D - 1))" -o "$prof" &
  fi
  if [[ $name == *.rest* ]]; then
    APP_ID=${KEY[$c]} APP_TOKEN=${TOKEN[$c]} bench_wrk "$name" "$(sed "s|^$base|$url0|" "$tmp/$name")"
  else
    APP_ID=${KEY[$c]} APP_TOKEN=${TOKEN[$c]} BODY="$tmp/$name" bench_wrk "$name" "$url0/graphql"
  fi
  s1=$(bench_ticks "${SRV[$side]}") g1=$(bench_pgticks)
  [ -z "$prof" ] || wait $!
  awk -v r="$wrk_rps" -v p="$wrk_p50" -v n="$wrk_n" -v s=$((s1 - s0)) -v g=$((g1 - g0)) -v hz="$hz" \
    'BEGIN { printf "%s %s %.3f %.3f\n", r, p, s * 1000 / hz / n, g * 1000 / hz / n }' | tee -a "$tmp/res.$name$sfx"
}

echo "== warm-up: every load once on each project, 1s each (not counted)"
for side in $sides; do for q in $loads; do for c in small large; do D=1 load "$q.$c" >/dev/null; done; done; done
side=a
rm -f "$tmp"/res.*

echo "== deep pages: page $deep"
echo "== $R rounds of ${D}s, wrk -t2 -c16; columns: req/s, p50 ms, cpu: server and postgres ms per request"
# The rounds of bench_rounds, on each server (A then B in odd rounds), with
# the round in $round for the profiles.
for r in $(seq "$R"); do
  round=$r
  order="small large"
  ss=$sides
  [ $((r % 2)) -eq 0 ] && order="large small" && [ "$sides" = "a b" ] && ss="b a"
  for q in $loads; do
    for c in $order; do
      for side in $ss; do echo -n "round $r $q $c${PROMO_BIN_B:+ $side}: "; load "$q.$c"; done
    done
  done
done
side=a

echo "== medians: req/s, p50 ms and cpu (server+postgres ms per request) on small and large; large/small of the p50 and of the cpu"
for q in $loads; do
  awk -v q="$q" -v ss="$(bench_col "$q.small" 1)" -v sp="$(bench_col "$q.small" 2)" -v ls="$(bench_col "$q.large" 1)" -v lp="$(bench_col "$q.large" 2)" \
    -v sc="$(bench_col "$q.small" 3)" -v sg="$(bench_col "$q.small" 4)" -v lc="$(bench_col "$q.large" 3)" -v lg="$(bench_col "$q.large" 4)" \
    'BEGIN { printf "%-22s small %6.0f req/s p50 %7.2f ms cpu %.2f+%.2f   large %6.0f req/s p50 %7.2f ms cpu %.2f+%.2f   p50 large/small %.2f cpu %.2f\n",
      q, ss, sp, sc, sg, ls, lp, lc, lg, lp / sp, (lc + lg) / (sc + sg) }'
done
if [ "$sides" = "a b" ]; then
  echo "== B ($PROMO_BIN_B): the same medians, and B/A of the cpu per request (server+postgres) on small and large"
  for q in $loads; do
    awk -v q="$q" -v ss="$(bench_col "$q.small.b" 1)" -v sp="$(bench_col "$q.small.b" 2)" -v ls="$(bench_col "$q.large.b" 1)" -v lp="$(bench_col "$q.large.b" 2)" \
      -v sc="$(bench_col "$q.small.b" 3)" -v sg="$(bench_col "$q.small.b" 4)" -v lc="$(bench_col "$q.large.b" 3)" -v lg="$(bench_col "$q.large.b" 4)" \
      -v asc="$(bench_col "$q.small" 3)" -v asg="$(bench_col "$q.small" 4)" -v alc="$(bench_col "$q.large" 3)" -v alg="$(bench_col "$q.large" 4)" \
      'BEGIN { printf "%-22s small %6.0f req/s p50 %7.2f ms cpu %.2f+%.2f   large %6.0f req/s p50 %7.2f ms cpu %.2f+%.2f   cpu B/A small %.2f large %.2f\n",
        q, ss, sp, sc, sg, ls, lp, lc, lg, (sc + sg) / (asc + asg), (lc + lg) / (alc + alg) }'
  done
fi

# EXPLAIN=1: then every request once more on each project, through a
# second server whose connections log the plans of their statements
# (auto_explain with ANALYZE, into PostgreSQL's log), printed per request:
# each statement's first line and its plan nodes (actual rows and loops;
# "Rows Removed by Filter").
[ -n "${EXPLAIN:-}" ] || exit 0
for s in "session_preload_libraries = 'auto_explain'" "auto_explain.log_min_duration = 0" "auto_explain.log_analyze = on" \
  "auto_explain.log_timing = off" "auto_explain.log_nested_statements = on"; do
  psql -qAt "$url" -c "ALTER DATABASE $db SET $s" >/dev/null
done
port2=$((port + 1))
bench_start "$port2" PROMO_AUTO_MIGRATE=false
bench_wait "http://127.0.0.1:$port2/healthz"
for q in $loads; do
  for c in small large; do
    mark=$(wc -c <"$pglog")
    if [[ $q == *.rest* ]]; then
      curl -fs -o /dev/null -H "X-App-Id: ${KEY[$c]}" -H "X-App-Token: ${TOKEN[$c]}" "$(sed "s/:$port\//:$port2\//" "$tmp/$q.$c")"
    else
      curl -fs -o /dev/null -H "X-App-Id: ${KEY[$c]}" -H "X-App-Token: ${TOKEN[$c]}" -H "Content-Type: application/json" \
        "http://127.0.0.1:$port2/graphql" -d @"$tmp/$q.$c"
    fi
    sleep 0.3
    echo "== plans of $q.$c"
    tail -c +$((mark + 1)) "$pglog" | awk '
      /Query Text:/ { sub(/.*Query Text: /, ""); print "  " substr($0, 1, 160); next }
      /\(actual rows=|Rows Removed/ { sub(/ +\(cost=[^)]*\)/, ""); print "  " $0 }'
  done
done
