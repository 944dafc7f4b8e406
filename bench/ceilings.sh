#!/usr/bin/env bash
# The generators of the bench's ceilings and of its sold-out flood, each run's own report kept in a file the bench
# reads (bench/README.md, "Ceilings", "What one run does"). The bench (dev.seckill.bench.scenario.Ceilings,
# ShardCeiling, LargeSale, FloodLevels) calls it a step at a time, so that its rounds interleave with those of its own
# client; anyone can run a step by hand against a running stack.
#
#   bench/ceilings.sh wrk FILE URL [SCRIPT]
#       wrk -t THREADS -c CONNECTIONS -d DURATION --latency of URL (loopback only) through bench/wrk-report.lua,
#       which runs SCRIPT's requests (e.g. bench/edge-soldout.lua) and adds a JSON summary line to wrk's report.
#       Environment: CONNECTIONS (256), DURATION (5s), THREADS (2), and what SCRIPT reads (SALE_ID).
#   bench/ceilings.sh flood DIR PORT USERS
#       One level of the sold-out flood: CONNECTIONS (1000) for DURATION (10s, whole seconds) of purchases of the
#       sold-out sale SALE_ID through the edge on 127.0.0.1:PORT (bench/edge-flood.lua: each request signed in as the
#       next user of the file USERS, lines "TOKEN ADDRESS", from that address). wrk processes of at most 10,000
#       connections each, one thread each, side by side, process N to 127.0.0.N when the edge answers there (Linux gives
#       one source address only ~14,000 ports to one destination quickly), each with the open-files limit raised to its
#       hard limit; each one's report in DIR/flood-CONNECTIONS-N.txt, each held HOLD (1.5) s after its report so that
#       the bench's pidstat sees its last second. DIR/flood-CONNECTIONS-open.json: the most connections seen open to
#       PORT at once (ss, less those open before), and after how many ms all were (-1: never).
#   bench/ceilings.sh redis-benchmark FILE PORT REQUESTS COMMAND...
#       redis-benchmark --csv of COMMAND on 127.0.0.1:PORT, REQUESTS calls by 50 clients, no pipelining; signed in
#       as BENCH_REDIS_USER with BENCH_REDIS_PASSWORD when set (redis-benchmark takes them on its command line only:
#       give a user made for the run).
#
# FILE receives the tool's whole output; the exit status is the tool's (flood: 1 when a wrk process failed; 1 on a
# usage error).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() { echo "ceilings: $*" >&2; exit 1; }

step=${1:-}
usage="usage: $0 wrk FILE URL [SCRIPT] | flood DIR PORT USERS | redis-benchmark FILE PORT REQUESTS COMMAND..."
[ $# -ge 3 ] || die "$usage"
file=$2
mkdir -p "$(dirname "$file")"
case $step in
  wrk)
    url=$3
    case $url in http://127.0.0.1:* | http://localhost:*) ;; *) die "wrk loads loopback only, not $url" ;; esac
    WRK_SCRIPT=${4:+$(cd "$(dirname "$4")" && pwd)/$(basename "$4")} \
      wrk -t"${THREADS:-2}" -c"${CONNECTIONS:-256}" -d"${DURATION:-5s}" --timeout 10s --latency \
      -s "$HERE/wrk-report.lua" "$url" > "$file" 2>&1 \
      || { cat "$file" >&2; exit 1; } ;;
  flood)
    [ $# -eq 4 ] || die "usage: $0 flood DIR PORT USERS"
    port=$3 users=$(cd "$(dirname "$4")" && pwd)/$(basename "$4") connections=${CONNECTIONS:-1000}
    seconds=${DURATION:-10s}
    seconds=${seconds%s}
    [ -r "$users" ] || die "no users file $users"
    mkdir -p "$file"
    processes=$(( (connections + 9999) / 10000 ))
    ulimit -n "$(ulimit -Hn)"
    established() { ss -Htn state established "( dport = :$port )" | wc -l; }
    others=$(established)
    pids=()
    for ((p = 1; p <= processes; p++)); do
      host=127.0.0.$p
      if ! (exec 3<> "/dev/tcp/$host/$port") 2> /dev/null; then
        echo "ceilings: the edge does not answer on $host:$port; process $p connects to 127.0.0.1" >&2
        host=127.0.0.1
      fi
      share=$(( connections / processes + (p <= connections % processes ? 1 : 0) ))
      USERS=$users PART=$((p - 1)) PARTS=$processes HOLD=${HOLD:-1.5} WRK_SCRIPT=$HERE/edge-flood.lua \
        wrk -t1 -c"$share" -d"${seconds}s" --timeout 30s --latency -s "$HERE/wrk-report.lua" \
        "http://$host:$port/" > "$file/flood-$connections-$p.txt" 2>&1 &
      pids+=("$!")
    done
    # Every connection open at once, and when: the client sockets established to the edge's port less those open
    # before wrk started (the bench's own), counted until all are or the run ends.
    start=$(date +%s%N) open=0 millis=-1
    while ((millis < 0 && $(date +%s%N) - start < seconds * 1000000000)); do
      n=$(( $(established) - others ))
      if ((n > open)); then open=$n; fi
      if ((n >= connections)); then millis=$(( ($(date +%s%N) - start) / 1000000 )); else sleep 0.1; fi
    done
    echo "{\"open\": $open, \"millis\": $millis}" > "$file/flood-$connections-open.json"
    failed=0
    for ((p = 1; p <= processes; p++)); do
      wait "${pids[p - 1]}" || { failed=1; cat "$file/flood-$connections-$p.txt" >&2; }
    done
    exit "$failed" ;;
  redis-benchmark)
    [ $# -ge 5 ] || die "usage: $0 redis-benchmark FILE PORT REQUESTS COMMAND..."
    port=$3 requests=$4
    shift 4
    auth=()
    if [ -n "${BENCH_REDIS_USER:-}" ]; then auth=(--user "$BENCH_REDIS_USER" -a "$BENCH_REDIS_PASSWORD"); fi
    redis-benchmark -h 127.0.0.1 -p "$port" -n "$requests" -c 50 --csv "${auth[@]}" "$@" > "$file" 2>&1 \
      || { cat "$file" >&2; exit 1; } ;;
  *) die "unknown step $step: wrk, flood or redis-benchmark" ;;
esac
