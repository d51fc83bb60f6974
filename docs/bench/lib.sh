# Shared set-up of the benchmark scripts in docs/bench (sourced, not run):
# the throwaway database, the server binary, starting the server and
# waiting for it, PostgreSQL's processes and their CPU, wrk runs, the
# cleanup at exit. A script starts with
#   cd "$(dirname "$0")/../.."
#   . docs/bench/lib.sh
#   bench_init NAME        # $bench (the script's name for messages), $tmp, the EXIT trap
#   bench_db PREFIX        # $db, $url: a new database, dropped at exit
#   bench_bin [TOOLS…]     # $tmp/promoengine (PROMO_BIN or a build), $tmp/TOOL for docs/bench/TOOL
#   bench_start PORT [VAR=VALUE…]; bench_wait "127.0.0.1:PORT/healthz"
# and keeps its own loads and reports. Everything here needs PG_URL (run
# the script under .ci/with-postgres).
#
# Variables a script may set before the exit:
#   bench_keep_tmp=1       keep $tmp (logs, plans, profiles) and remove only
#                          the copied binaries (~180 MB) at exit
# and a function it may define:
#   bench_on_exit          runs first at exit (e.g. copy a log before the
#                          server stops)

# bench_init NAME: the script's name ($bench, for messages), a temporary
# directory ($tmp), the list of started processes ($pids) and databases,
# and the EXIT trap (bench_cleanup). Fails unless PG_URL is set.
bench_init() {
  bench=$1
  : "${PG_URL:?run me under .ci/with-postgres}"
  tmp=$(mktemp -d)
  pids=()
  bench_dbs=()
  bench_bins=()
  bench_keep_tmp=
  trap bench_cleanup EXIT
}

# bench_cleanup: the EXIT trap. Runs bench_on_exit when the script defined
# it, stops the processes in $pids, drops the databases bench_db and
# bench_pgbench_db made, and removes $tmp (only its binaries with
# bench_keep_tmp set).
bench_cleanup() {
  if declare -F bench_on_exit >/dev/null; then bench_on_exit || true; fi
  local p d
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  for d in "${bench_dbs[@]}"; do
    psql -qAt "$PG_URL" -c "DROP DATABASE IF EXISTS $d WITH (FORCE)" >/dev/null 2>&1 || true
  done
  if [ -n "$bench_keep_tmp" ]; then
    for p in "${bench_bins[@]}"; do rm -f "$tmp/$p"; done
  else
    rm -rf "$tmp"
  fi
}

# bench_db PREFIX: creates the database PREFIX_<unix time> ($db) on the
# PostgreSQL of PG_URL and sets $url to it; it is dropped at exit.
bench_db() {
  db="$1_$(date +%s)"
  psql -qAt "$PG_URL" -c "CREATE DATABASE $db" >/dev/null
  bench_dbs+=("$db")
  url=$(bench_url_of "$db")
}

# bench_url_of NAME: PG_URL with its database replaced by NAME.
bench_url_of() { echo "${PG_URL/\/postgres\?//$1?}"; }

# bench_pgbench_db SCALE: a second database ${db}_pgbench ($bench_url)
# initialized for pgbench's TPC-B-like workload at scale SCALE; dropped at
# exit. Needs bench_pg (pgbench) and bench_db first.
bench_pgbench_db() {
  psql -qAt "$PG_URL" -c "CREATE DATABASE ${db}_pgbench" >/dev/null
  bench_dbs+=("${db}_pgbench")
  bench_url=$(bench_url_of "${db}_pgbench")
  "$pgbin/pgbench" -q -i -s "$1" "$bench_url" >/dev/null 2>&1
}

# bench_bin [TOOL…]: the server binary at $tmp/promoengine — a copy of
# PROMO_BIN when set (another build, e.g. of an earlier commit), else a
# build of the working tree — and a build of each docs/bench/TOOL (pubload,
# redload, pubsql) at $tmp/TOOL.
bench_bin() {
  if [ -n "${PROMO_BIN:-}" ]; then
    cp "$PROMO_BIN" "$tmp/promoengine"
  else
    go build -o "$tmp/promoengine" ./cmd/promoengine
  fi
  bench_bins+=(promoengine)
  local t
  for t in "$@"; do
    go build -o "$tmp/$t" "./docs/bench/$t"
    bench_bins+=("$t")
  done
}

# bench_port: a random port from 20000 to 39999 ($port) for the server;
# scripts take the next ones for their other listeners.
bench_port() { port=$((20000 + RANDOM % 20000)); }

# bench_start PORT [VAR=VALUE…]: starts $tmp/promoengine on $url at
# 127.0.0.1:PORT, migrating, at log level warn, without the per-key rate
# limit, with the application key bench/bench (and the management key
# benchm/benchm); VAR=VALUE pairs add or override environment variables.
# Its standard output goes to $tmp/server.out, its log to $tmp/server.log.
# Sets $bench_pid and adds it to $pids (stopped at exit). $bench_server,
# when set, names another binary to start.
bench_start() {
  local p=$1
  shift
  env PROMO_DATABASE_URL="$url" PROMO_AUTO_MIGRATE=true PROMO_ADDR="127.0.0.1:$p" PROMO_LOG_LEVEL=warn \
    PROMO_RATE_LIMIT=-1 PROMO_BOOTSTRAP_APP_ID=bench PROMO_BOOTSTRAP_APP_TOKEN=bench \
    PROMO_BOOTSTRAP_MANAGEMENT_ID=benchm PROMO_BOOTSTRAP_MANAGEMENT_TOKEN=benchm "$@" \
    "${bench_server:-$tmp/promoengine}" >>"$tmp/server.out" 2>>"$tmp/server.log" &
  bench_pid=$!
  pids+=("$bench_pid")
}

# bench_stop PID: stops a process bench_start started, and waits for it.
bench_stop() {
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
  local p keep=()
  for p in "${pids[@]}"; do [ "$p" = "$1" ] || keep+=("$p"); done
  pids=("${keep[@]}")
}

# bench_wait CURL_ARGS…: waits up to 30 s for curl CURL_ARGS… to succeed
# (a server's /healthz); fails the script otherwise.
bench_wait() {
  for _ in $(seq 300); do curl -fs -o /dev/null "$@" && return 0; sleep 0.1; done
  echo "$bench: $* never answered" >&2
  exit 1
}

# bench_pg: the benchmark's PostgreSQL — $pgbin (its newest binaries'
# directory: pgbench), $pgdata (data directory), $postmaster (pid), $pglog
# (the server log .ci/with-postgres writes) and $hz (clock ticks a second).
bench_pg() {
  pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  pgdata=$(psql -qAt "$PG_URL" -c "SHOW data_directory")
  postmaster=$(head -n 1 "$pgdata/postmaster.pid")
  pglog="$(dirname "$pgdata")/server.log"
  hz=$(getconf CLK_TCK)
}

# bench_ticks PID…: the CPU ticks (user + system) the processes used so far.
bench_ticks() {
  local s=0 v p
  for p in "$@"; do v=$(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0); s=$((s + v)); done
  echo "$s"
}

# bench_pgticks: PostgreSQL's CPU ticks so far — the postmaster's own with
# those of the children it reaped, and its live children's (backends,
# autovacuum, …). Needs bench_pg.
bench_pgticks() {
  echo $(($(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$postmaster/stat") + $(bench_ticks $(pgrep -P "$postmaster" || true))))
}

# bench_req_lua: writes $tmp/req.lua, wrk's script for every load: POST of
# the JSON file $BODY (a GET without it), with the application key in
# $APP_ID/$APP_TOKEN when set (empty counts as unset).
bench_req_lua() {
  cat >"$tmp/req.lua" <<'LUA'
-- POST the JSON body in $BODY (GET without it), with the application
-- key in $APP_ID/$APP_TOKEN when set (an empty variable is unset).
local function env(k) local v = os.getenv(k); if v ~= "" then return v end end
if env("BODY") then
  local f = assert(io.open(os.getenv("BODY"), "rb"))
  wrk.method = "POST"
  wrk.body = f:read("*a")
  f:close()
  wrk.headers["Content-Type"] = "application/json"
end
if env("APP_ID") then
  wrk.headers["X-App-Id"] = os.getenv("APP_ID")
  wrk.headers["X-App-Token"] = os.getenv("APP_TOKEN")
end
LUA
}

# bench_wrk LABEL URL: one wrk run (2 threads, 16 connections, $D seconds,
# --latency, $tmp/req.lua: set BODY, APP_ID and APP_TOKEN in its
# environment) against URL; fails the script on a non-2xx answer. Sets
# $wrk_out (wrk's report), $wrk_rps, $wrk_n (requests) and $wrk_p50 (ms).
bench_wrk() {
  command -v wrk >/dev/null || { echo "$bench: needs wrk (apt-get install -y wrk)" >&2; exit 1; }
  wrk_out=$(wrk -t2 -c16 -d"${D}s" --latency -s "$tmp/req.lua" "$2")
  if grep -q "Non-2xx" <<<"$wrk_out"; then echo "$bench: $1: non-2xx answers" >&2; echo "$wrk_out" >&2; exit 1; fi
  wrk_rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$wrk_out")
  wrk_n=$(awk '/requests in/ { print $1 }' <<<"$wrk_out")
  wrk_p50=$(awk '$1 == "50%" { print $2 }' <<<"$wrk_out" | bench_ms)
}

# bench_rounds LOADS: $R rounds in which every load of LOADS runs on the
# "small" and on the "large" data set, the small one first in odd rounds
# and the large one first in even ones; each run prints
# "round R LOAD SET: " and then what the script's function load LOAD.SET
# prints (and appends to $tmp/res.LOAD.SET, which bench_col reads).
bench_rounds() {
  local r q c order
  for r in $(seq "$R"); do
    order="small large"
    [ $((r % 2)) -eq 0 ] && order="large small"
    for q in $1; do
      for c in $order; do echo -n "round $r $q $c: "; load "$q.$c"; done
    done
  done
}

# bench_col NAME N: the median over the rounds of column N of $tmp/res.NAME.
bench_col() { cut -d' ' -f"$2" "$tmp/res.$1" | median; }

# bench_ms: wrk's durations on stdin (850.00us, 1.20ms, 1.01s) in ms.
bench_ms() {
  awk '{ v = $1; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; print v }'
}

# median: the median of the numbers on stdin, one a line (of an even count,
# the lower of the two middle ones).
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# bench_gql QUERY: the JSON body {"query": QUERY}.
bench_gql() { printf '%s' "$1" | python3 -c 'import json,sys; print(json.dumps({"query": sys.stdin.read()}))'; }
