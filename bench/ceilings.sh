#!/usr/bin/env bash
# The generators of the bench's ceilings, each run's own report kept in a file the bench reads (bench/README.md,
# "Ceilings"). The bench (dev.seckill.bench.scenario.Ceilings, ShardCeiling, LargeSale) calls it a step at a time, so
# that its rounds interleave with those of its own client; anyone can run a step by hand against a running stack.
#
#   bench/ceilings.sh wrk FILE URL [SCRIPT]
#       wrk -t THREADS -c CONNECTIONS -d DURATION --latency of URL (loopback only) through bench/wrk-report.lua,
#       which runs SCRIPT's requests (e.g. bench/edge-soldout.lua) and adds a JSON summary line to wrk's report.
#       Environment: CONNECTIONS (256), DURATION (5s), THREADS (2), and what SCRIPT reads (SALE_ID).
#   bench/ceilings.sh redis-benchmark FILE PORT REQUESTS COMMAND...
#       redis-benchmark --csv of COMMAND on 127.0.0.1:PORT, REQUESTS calls by 50 clients, no pipelining; signed in
#       as BENCH_REDIS_USER with BENCH_REDIS_PASSWORD when set (redis-benchmark takes them on its command line only:
#       give a user made for the run).
#
# FILE receives the tool's whole output; the exit status is the tool's (1 on a usage error).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() { echo "ceilings: $*" >&2; exit 1; }

step=${1:-}
[ $# -ge 3 ] || die "usage: $0 wrk FILE URL [SCRIPT] | redis-benchmark FILE PORT REQUESTS COMMAND..."
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
  redis-benchmark)
    [ $# -ge 5 ] || die "usage: $0 redis-benchmark FILE PORT REQUESTS COMMAND..."
    port=$3 requests=$4
    shift 4
    auth=()
    if [ -n "${BENCH_REDIS_USER:-}" ]; then auth=(--user "$BENCH_REDIS_USER" -a "$BENCH_REDIS_PASSWORD"); fi
    redis-benchmark -h 127.0.0.1 -p "$port" -n "$requests" -c 50 --csv "${auth[@]}" "$@" > "$file" 2>&1 \
      || { cat "$file" >&2; exit 1; } ;;
  *) die "unknown step $step: wrk or redis-benchmark" ;;
esac
