# `bin/seckill trace <orderId|requestId>` (issue 16): one order's path from the click to its row, from the logs of
# the stack's nodes (every node of the cluster with --cluster) and the database. Sourced by bin/seckill, not run.
#
# Where each step is logged, and the ids that join them:
#   edge     $RUN/<edge>/logs/purchase.log    one JSON object per purchase: requestId, status, orderId (X-Order-Id)
#   service  $RUN/<service>/service.log       "purchase queued": requestId, orderId, saleId, userId, partition, offset
#   writer   $RUN/<writer>/writer.log         "order row written": requestId (the record's header), orderId, batch
#   row      seckill_order                    by orderId: state, created_at, written_at
# An id is first looked up as either; the lines found name the other id, and a second pass finds every line of
# either. The edge's log is buffered (up to a second), so a purchase made a moment ago may not be in it yet.

# The jq program that turns one log line into a step, or nothing: the edge's lines and the JSON lines of the Java
# nodes (logback's JsonEncoder: timestamp in epoch ms, the ids in kvpList) that name $rid or $oid. A step is
# {ms, stage, node, text, rid, oid}. Lines that are not JSON (a JVM's own warnings) are skipped.
# jq's variables, not the shell's.
# shellcheck disable=SC2016
TRACE_JQ='
  def kv: (.kvpList // []) | add // {};
  def hit($r; $o): ($r != "" and .rid == $r) or ($o != "" and .oid == $o);
  fromjson? | objects
  | if $kind == "edge" then
      {ms: ((.msec - .requestTime) * 1000 | floor), stage: "edge", node: $node, rid: .requestId, oid: .orderId,
       text: "purchase of sale \(.saleId): \(.status) after \(.requestTime) s (service \(.upstreamTime) s)"}
    else
      kv as $kv
      | select($kv.orderId != null)
      | {ms: .timestamp, stage: $kind, node: $node, rid: ($kv.requestId // ""), oid: $kv.orderId, kv: $kv,
         text: .formattedMessage}
    end
  | select(hit($rid; $oid))'

# trace_steps RID OID: every step of the stack's logs that names RID or OID, one JSON object a line.
trace_steps() {
  local rid=$1 oid=$2 n kind file pats=()
  [ -n "$rid" ] && pats+=(-e "\"$rid\"")
  [ -n "$oid" ] && pats+=(-e "\"$oid\"")
  for n in "${NODES[@]}"; do
    kind=$(kind_of "$n")
    case $kind in
      edge) file="$RUN/$n/logs/purchase.log" ;;
      service | writer) file=$(log_of "$n") ;;
      *) continue ;;
    esac
    [ -f "$file" ] || continue
    # Cheap first: only lines holding one of the ids go through jq.
    grep -F "${pats[@]}" "$file" 2>/dev/null \
      | jq -cR --arg kind "$kind" --arg node "$n" --arg rid "$rid" --arg oid "$oid" "$TRACE_JQ" || true
  done
}

# The first non-empty value of FIELD among the steps on stdin.
trace_field() { jq -rs --arg f "$1" '[.[] | .[$f] | select(. != null and . != "")] | first // ""'; }

# Prints the steps on stdin in the path's order (edge, service, Kafka, writer), each with its own time, and the steps
# of one kind in time order. Not all in time order: the service logs its line when it hears the broker's ack, and the
# writer may have read the event and written the row a few ms before that.
trace_print() {
  jq -rs '
    def at: (./1000 | floor | strftime("%Y-%m-%dT%H:%M:%S")) + "." + ("00\(. % 1000)" | .[-3:]) + "Z";
    [ .[] | ., (select(.stage == "service" and .kv.partition != null)
                | {ms, stage: "kafka", node, text: "seckill.orders partition \(.kv.partition) offset \(.kv.offset) (acknowledged to the service)"})
    ]
    | sort_by(({edge: 0, service: 1, kafka: 2, writer: 3}[.stage]), .ms) | .[]
    | "\(.ms | at)  \(.stage | . + "        " | .[:8]) \(.node | . + "          " | .[:10]) " + .text
      + (if .stage == "writer" then " (batch \(.kv.batch): \(.kv.batchSize) orders)" else "" end)
      + (if .stage == "service" then " (user \(.kv.userId))" else "" end)
      + (if .stage == "kafka" then "" else "  requestId=\(.rid) orderId=\(.oid)" end)'
}

# The order's row, as a last step (the database's own clock: created_at is the purchase's time from the event,
# written_at the insert's).
trace_row() {
  local oid=$1 row
  [[ "$oid" =~ ^[1-9][0-9]{0,18}$ ]] || return 1
  row=$(db_cli -N -B seckill -e "SELECT sale_id, user_id, state, created_at, written_at,
    CONCAT(DATE_FORMAT(written_at, '%Y-%m-%dT%H:%i:%s.'), LPAD(MICROSECOND(written_at) DIV 1000, 3, '0'), 'Z')
    FROM seckill_order WHERE order_id = $oid" 2> /dev/null) || return 1
  [ -n "$row" ] || return 1
  IFS=$'\t' read -r sale user state created written at <<< "$row"
  printf '%s  %-8s %-10s seckill_order %s: sale %s, user %s, state %s, created %s, written %s\n' \
    "$at" row db "$oid" "$sale" "$user" "$state" "$created" "$written"
}

cmd_trace() {
  local id=${1:-} steps rid oid found=0
  [[ "$id" =~ ^[A-Za-z0-9._:-]{1,64}$ ]] || die "usage: bin/seckill trace <orderId|requestId> [--cluster]"
  command -v jq > /dev/null || die "jq is missing: bin/seckill install"
  # The id as either; then both ids as the lines found tell them.
  steps=$(trace_steps "$id" "$id")
  rid=$(trace_field rid <<< "$steps")
  oid=$(trace_field oid <<< "$steps")
  [ -n "$rid$oid" ] && steps=$(trace_steps "$rid" "$oid")
  echo "trace of $id: requestId ${rid:-?}, orderId ${oid:-?} (run directory $RUN)"
  if [ -n "$steps" ]; then
    trace_print <<< "$steps"
    found=1
  fi
  if [ -n "$oid" ] && trace_row "$oid"; then
    found=1
  elif [ -n "$oid" ]; then
    echo "no row for order $oid (yet: the writer may not have written it)"
  fi
  [ "$found" = 1 ] || die "nothing found for $id (the edge's purchase log is flushed once a second)"
}

# trace_a_written_order FILE: the trace of one order the stack wrote (its newest row), into FILE and onto stdout;
# the bench's report ends with it, so every run shows one order followed from the edge to its row.
trace_a_written_order() {
  local file=$1 oid
  oid=$(db_cli -N -B seckill -e "SELECT order_id FROM seckill_order ORDER BY written_at DESC, order_id DESC LIMIT 1" \
    2> /dev/null) || { say "no order to trace: the database did not answer"; return 0; }
  [ -n "$oid" ] || { say "no order to trace: no row was written"; return 0; }
  # The edge flushes its purchase log once a second: ask again (a few times) until its step is there.
  local out="" _
  for _ in 1 2 3 4 5 6; do
    out=$( (cmd_trace "$oid") 2>&1) && grep -q '  edge ' <<< "$out" && break
    sleep 0.5
  done
  printf '%s\n' "$out" | tee "$file"
}
