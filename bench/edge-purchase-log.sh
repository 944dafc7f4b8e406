#!/usr/bin/env bash
# The cost of the edge's purchase log (issue 16): a bounded flood of purchases with the log on and off in interleaved
# rounds on the same edge, reloaded between them (bin/seckill reload-edge with SECKILL_EDGE_PURCHASE_LOG). Prints
# each round, the ratio of the best rounds (on / off) and that of all rounds' sums. Leaves the log on and the edge's knobs as the environment
# has them.
#   MODE=flag     purchases of a sale the edge holds a sold-out flag for: the flood the edge answers itself (not
#                 logged: the log's condition is all it costs)
#   MODE=service  purchases without a token, each proxied to the service (its 401), every one logged: the edge's
#                 per-IP limits and admission are lifted for the run so that the service sees the whole flood
#
#   MODE=flag|service bench/edge-purchase-log.sh     the stack bin/seckill's environment names (from the checkout)
#
# Environment: MODE (flag), DURATION (5s per round), CONNECTIONS (64), THREADS (2), ROUNDS (4), SALE_ID (999999999,
# a dummy sale; its flag is set through the operator location and cleared at the end).
set -euo pipefail

HOME_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
EDGE=http://127.0.0.1:${SECKILL_EDGE_PORT:-8080}
DURATION=${DURATION:-5s} CONNECTIONS=${CONNECTIONS:-64} THREADS=${THREADS:-2} ROUNDS=${ROUNDS:-4}
export SALE_ID=${SALE_ID:-999999999}
MODE=${MODE:-flag}

die() { echo "edge-purchase-log: $*" >&2; exit 1; }
command -v wrk > /dev/null || die "wrk is not installed (bin/seckill install)"
curl -fsS -m 3 -o /dev/null "$EDGE/edge/health" || die "no edge answering at $EDGE (bin/seckill up edge)"

log_set() {
  local lift=()
  [ "$MODE" = service ] && [ "${2:-}" != restore ] && lift=(SECKILL_EDGE_RATE=1000000 SECKILL_EDGE_BURST=1000000
    SECKILL_EDGE_ADMIT_RATE=1000000 SECKILL_EDGE_ADMIT_IN_FLIGHT=10000 SECKILL_EDGE_CONN_PER_IP=10000)
  env "${lift[@]}" SECKILL_EDGE_PURCHASE_LOG="$1" "$HOME_DIR/bin/seckill" reload-edge > /dev/null 2>&1 \
    || die "reload failed"
}
rps() {
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "$HOME_DIR/bench/edge-soldout.lua" "$EDGE" \
    | awk '/^Requests\/sec/ { printf "%.0f\n", $2 }'
}

case $MODE in
  flag)
    ttl=$((ROUNDS * 2 * ${DURATION%s} + 60))
    curl -fsS -m 3 -X PUT "$EDGE/edge/flags/sold-out/$SALE_ID?ttl=$ttl" > /dev/null || die "failed to set the flag" ;;
  service) ;;
  *) die "MODE must be flag or service" ;;
esac
trap 'curl -fsS -m 3 -X DELETE "$EDGE/edge/flags/sold-out/$SALE_ID" > /dev/null || true; log_set on restore' EXIT

echo "$MODE flood: edge $EDGE, wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ROUNDS interleaved rounds"
# A warm-up round first (the service's JIT), not counted; then on and off take turns at going first, so a trend in
# the background load or the warm-up does not favour one.
log_set on
rps > /dev/null
best_on=0 best_off=0 sum_on=0 sum_off=0
for ((round = 1; round <= ROUNDS; round++)); do
  if ((round % 2)); then
    log_set on; on=$(rps); log_set off; off=$(rps)
  else
    log_set off; off=$(rps); log_set on; on=$(rps)
  fi
  printf 'round %d: log on %8d req/s | log off %8d req/s\n' "$round" "$on" "$off"
  sum_on=$((sum_on + on)) sum_off=$((sum_off + off))
  [ "$on" -gt "$best_on" ] && best_on=$on
  [ "$off" -gt "$best_off" ] && best_off=$off
done
awk -v a="$best_on" -v b="$best_off" -v c="$sum_on" -v d="$sum_off" 'BEGIN {
  printf "best: log on %d req/s, log off %d req/s, ratio on/off %.2f; all rounds: ratio on/off %.2f\n",
    a, b, (b > 0 ? a / b : 0), (d > 0 ? c / d : 0) }'
