#!/usr/bin/env bash
# The edge's ceiling: a bare nginx `return 200` (/edge/bench/ok) against the sold-out short-circuit (purchases of a
# sale the edge holds a flag for), measured in the same run on the same edge, rounds interleaved so both see the
# same background load. Prints the req/s of each (best round) and their ratio; the target is ratio >= 0.8.
#
#   bench/edge-ceiling.sh [EDGE_URL]      default http://127.0.0.1:${SECKILL_EDGE_PORT:-8080}; must be loopback
#
# Environment: DURATION (5s per round), CONNECTIONS (64), THREADS (2), ROUNDS (2), SALE_ID (999999999, a dummy
# sale: the flag is set through the admin location and cleared at the end; the service is never called).
# Exit status: 0 target met, 2 below target, 1 error.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
EDGE=${1:-http://127.0.0.1:${SECKILL_EDGE_PORT:-8080}}
DURATION=${DURATION:-5s} CONNECTIONS=${CONNECTIONS:-64} THREADS=${THREADS:-2} ROUNDS=${ROUNDS:-2}
export SALE_ID=${SALE_ID:-999999999}
TARGET=0.8

die() { echo "edge-ceiling: $*" >&2; exit 1; }
command -v wrk > /dev/null || die "wrk is not installed (bin/seckill install)"
curl -fsS -m 3 -o /dev/null "$EDGE/edge/health" || die "no edge answering at $EDGE (bin/seckill up edge)"

short_circuits() {
  curl -fsS -m 3 "$EDGE/edge/metrics" | awk '/^seckill_edge_sold_out_short_circuits_total / { n = $2 } END { print n + 0 }'
}

# wrk_rps ARGS...: runs wrk and prints "<req/s> <requests> <non-2xx>".
wrk_rps() {
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "$@" | awk '
    /requests in/ { total = $1 }
    /Non-2xx or 3xx responses/ { bad = $NF }
    /^Requests\/sec/ { rps = $2 }
    END { printf "%.0f %d %d\n", rps, total, bad + 0 }'
}

# The flag must outlive every round.
ttl=$((ROUNDS * 2 * ${DURATION%s} + 60))
curl -fsS -m 3 -X PUT "$EDGE/edge/flags/sold-out/$SALE_ID?ttl=$ttl" > /dev/null || die "failed to set the sold-out flag"
trap 'curl -fsS -m 3 -X DELETE "$EDGE/edge/flags/sold-out/$SALE_ID" > /dev/null || true' EXIT

echo "edge $EDGE, wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ROUNDS interleaved rounds"
best_ok=0 best_sc=0
for ((round = 1; round <= ROUNDS; round++)); do
  read -r ok_rps _ ok_bad < <(wrk_rps "$EDGE/edge/bench/ok")
  [ "$ok_bad" = 0 ] || die "/edge/bench/ok answered $ok_bad non-2xx responses"

  before=$(short_circuits)
  read -r sc_rps sc_total _ < <(wrk_rps -s "$HERE/edge-soldout.lua" "$EDGE")
  answered=$(( $(short_circuits) - before ))
  # Every purchase must have been answered by the flag (wrk may count a few more in-flight at the end).
  [ "$answered" -ge "$sc_total" ] || die "only $answered of $sc_total purchases were short-circuited"

  printf 'round %d: return 200 %8d req/s | sold-out short-circuit %8d req/s\n' "$round" "$ok_rps" "$sc_rps"
  [ "$ok_rps" -gt "$best_ok" ] && best_ok=$ok_rps
  [ "$sc_rps" -gt "$best_sc" ] && best_sc=$sc_rps
done

ratio=$(awk -v a="$best_sc" -v b="$best_ok" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
echo "best: return 200 $best_ok req/s, sold-out short-circuit $best_sc req/s, ratio $ratio (target >= $TARGET)"
if awk -v r="$ratio" -v t="$TARGET" 'BEGIN { exit !(r >= t) }'; then echo "target met"; else echo "below target"; exit 2; fi
