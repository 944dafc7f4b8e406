# `bin/seckill profile start|stop [DIR]`: where a running stack's time goes over a window, recorded by the field's
# own tools, never by ours. Sourced by bin/seckill, not run. `bin/seckill bench --profile` calls it around the large
# sale through the edge; anyone can call it around any load (bench/README.md, "Where the time goes").
#
# For every node of the stack this command is configured for (SECKILL_RUN_DIR, or --cluster):
#   service, writer, kafka  the JDK's Flight Recorder (jcmd JFR.start, settings=profile, a CPU sample of the threads
#                           running Java code every 1 ms instead of 10, none of those waiting in native code (they
#                           would count a thread parked in epoll as busy), allocation samples, locks), written to
#                           DIR/<node>.jfr at the stop; then per node
#                           `jfr view hot-methods` and `allocation-by-class`, and CPU and allocation flame graphs
#                           by async-profiler's converter (jfrconv, from the bench's jar)
#   edge                    perf record -e cpu-clock of its nginx workers (call graphs; the kernel's symbols when it
#                           shows them), `perf report` of it at the stop
#   redis                   INFO commandstats at start and stop: calls and µs per command over the window
#   kafka                   the broker's request metrics (Produce and Fetch requests, messages in) at start and
#                           stop, read by Kafka's own JmxTool over the JVM's local management agent
# DIR defaults to $RUN/profile; at the start it must be new, empty or an earlier profile (then it is emptied).
# DIR/summary.txt collects the text.

PROFILE_USAGE="usage: bin/seckill profile start|stop [DIR]"
PROFILE_NAME=seckill-profile
# The file that marks a directory as a profile this command made (and may empty at the next start).
PROFILE_MARK=.seckill-profile

cmd_profile() {
  local action=${1:-} dir=${2:-$RUN/profile}
  case $dir in /*) ;; *) dir="$PWD/$dir" ;; esac
  use_jdk
  case $action in
    start) profile_start "$dir" ;;
    stop) profile_stop "$dir" ;;
    *) die "$PROFILE_USAGE" ;;
  esac
}

profile_start() {
  local dir=$1 n pid
  # A recording started into DIR before and never stopped ends here, not in the new one.
  for pid in "$dir"/*.perf.pid; do [ -f "$pid" ] && kill -INT "$(cat "$pid")" 2>/dev/null; done
  for n in "${NODES[@]}"; do
    case $(kind_of "$n") in service | writer | kafka)
      pid=$(live_pid "$n") && "$JAVA_HOME/bin/jcmd" "$pid" JFR.stop name=$PROFILE_NAME > /dev/null 2>&1 ;;
    esac
  done
  # DIR is emptied: only when it is new, empty, or an earlier profile's (its mark), never a directory of other files.
  if [ -n "$(ls -A "$dir" 2>/dev/null)" ] && [ ! -f "$dir/$PROFILE_MARK" ]; then
    die "$dir holds other files than a profile: name a new or empty directory"
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  touch "$dir/$PROFILE_MARK"
  for n in "${NODES[@]}"; do
    pid=$(live_pid "$n") || continue
    case $(kind_of "$n") in
      service | writer | kafka)
        "$JAVA_HOME/bin/jcmd" "$pid" JFR.start name=$PROFILE_NAME settings=profile 'jdk.ExecutionSample#period=1ms' \
          'jdk.NativeMethodSample#enabled=false' > "$dir/$n.jcmd.log" 2>&1 \
          || die "JFR.start failed in $n (pid $pid): see $dir/$n.jcmd.log" ;;
      edge) profile_perf_start "$dir" "$n" "$pid" ;;
      redis) redis_cli_at "$n" INFO commandstats | tr -d '\r' > "$dir/$n.commandstats.start" ;;
    esac
    [ "$(kind_of "$n")" = kafka ] && profile_kafka_metrics "$n" "$pid" > "$dir/$n.requests.start"
  done
  say "profiling $RUN into $dir (bin/seckill profile stop $dir ends it)"
}

# perf samples the workers (not the master, which only manages them) on the cpu-clock software event, which works
# where the hardware counters are not exposed (virtual machines, containers).
profile_perf_start() {
  local dir=$1 n=$2 master=$3 workers
  command -v perf > /dev/null || { echo "perf is not installed (apt-get install linux-perf)" > "$dir/$n.perf.txt"; return 0; }
  workers=$(pgrep -d, -P "$master") || { echo "no workers under nginx's master $master" > "$dir/$n.perf.txt"; return 0; }
  perf record -e cpu-clock -F 999 -g -p "$workers" -o "$dir/$n.perf.data" > "$dir/$n.perf.log" 2>&1 &
  echo $! > "$dir/$n.perf.pid"
}

profile_stop() {
  local dir=$1 n pid jar
  [ -d "$dir" ] || die "no profile was started into $dir"
  jar="$HOME_DIR/bench/target/seckill-bench.jar"
  for n in "${NODES[@]}"; do
    pid=$(live_pid "$n") || continue
    case $(kind_of "$n") in
      service | writer | kafka)
        "$JAVA_HOME/bin/jcmd" "$pid" JFR.stop name=$PROFILE_NAME filename="$dir/$n.jfr" >> "$dir/$n.jcmd.log" 2>&1 \
          || { say "JFR.stop failed in $n: see $dir/$n.jcmd.log"; continue; }
        "$JAVA_HOME/bin/jfr" view --width 160 hot-methods "$dir/$n.jfr" > "$dir/$n.hot-methods.txt" 2>&1
        "$JAVA_HOME/bin/jfr" view --width 160 allocation-by-class "$dir/$n.jfr" > "$dir/$n.allocation.txt" 2>&1
        if [ -f "$jar" ]; then
          "$JAVA" -cp "$jar" Main --dot -o collapsed "$dir/$n.jfr" "$dir/$n-cpu.collapsed" > /dev/null 2>&1 \
            && profile_owners "$dir/$n-cpu.collapsed" > "$dir/$n.cpu-by-package.txt"
          "$JAVA" -cp "$jar" Main --title "$n: CPU (Java code)" "$dir/$n.jfr" "$dir/$n-cpu.html" > /dev/null 2>&1
          "$JAVA" -cp "$jar" Main --alloc --total --title "$n: bytes allocated" "$dir/$n.jfr" "$dir/$n-alloc.html" \
            > /dev/null 2>&1
        fi ;;
      edge) profile_perf_stop "$dir" "$n" ;;
      redis)
        redis_cli_at "$n" INFO commandstats | tr -d '\r' > "$dir/$n.commandstats.stop"
        profile_commandstats "$dir/$n.commandstats.start" "$dir/$n.commandstats.stop" > "$dir/$n.commandstats.txt" ;;
    esac
    if [ "$(kind_of "$n")" = kafka ]; then
      profile_kafka_metrics "$n" "$pid" > "$dir/$n.requests.stop"
      profile_counts "$dir/$n.requests.start" "$dir/$n.requests.stop" > "$dir/$n.requests.txt"
    fi
  done
  profile_summary "$dir" > "$dir/summary.txt"
  say "profile of $RUN in $dir (summary.txt; *.jfr for JDK Mission Control; *-cpu.html, *-alloc.html)"
}

profile_perf_stop() {
  local dir=$1 n=$2 pid
  pid=$(cat "$dir/$n.perf.pid" 2>/dev/null) || return 0
  kill -INT "$pid" 2>/dev/null
  # perf writes its file after the signal; its pid is a child of an earlier shell, so poll rather than wait.
  local deadline=$((SECONDS + 30))
  while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  { perf report -i "$dir/$n.perf.data" --stdio --no-children --sort dso -g none --percent-limit 1 \
    && perf report -i "$dir/$n.perf.data" --stdio --no-children --sort dso,sym -g none --percent-limit 0.5; } \
    > "$dir/$n.perf.txt" 2>> "$dir/$n.perf.log" || echo "perf report failed: see $dir/$n.perf.log" > "$dir/$n.perf.txt"
}

# profile_owners COLLAPSED: the CPU samples by the package of their innermost frame outside the JDK (its first three
# names: io.helidon.webserver, org.apache.kafka, dev.seckill.purchase), a stack of JDK frames only by its leaf's.
profile_owners() {
  awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); owner = ""
         for (i = k; i >= 1 && owner == ""; i--) if (f[i] !~ /^(java|javax|jdk|sun|com\.sun)\./) owner = f[i]
         jdk = owner == ""; if (jdk) owner = f[k]
         m = split(owner, p, "."); owner = p[1] (m > 2 ? "." p[2] : "") (m > 3 ? "." p[3] : "")
         if (jdk) owner = "JDK only: " owner
         c[owner] += n; t += n }
       END { for (o in c) printf "%6.1f%%  %8d  %s\n", 100 * c[o] / t, c[o], o }' "$1" | sort -rn
}

# profile_commandstats BEFORE AFTER: per command, the calls and µs of CPU over the window (Redis's own accounting).
profile_commandstats() {
  awk -F'[:=,]' '
    /^cmdstat_/ { calls = $3; usec = $5
      if (FILENAME == ARGV[1]) { c0[$1] = calls; u0[$1] = usec; next }
      dc = calls - c0[$1]; du = usec - u0[$1]
      if (dc > 0) printf "%-28s %12d calls %14d usec %10.2f usec/call\n", substr($1, 9), dc, du, du / dc }' "$1" "$2"
}

# profile_kafka_metrics NODE PID: "name count" lines of the broker's request metrics, by Kafka's JmxTool over the
# JVM's local management agent (started here if it is not: jcmd ManagementAgent.start_local).
profile_kafka_metrics() {
  local n=$1 pid=$2 url
  "$JAVA_HOME/bin/jcmd" "$pid" ManagementAgent.start_local > /dev/null 2>&1
  url=$("$JAVA_HOME/bin/jcmd" "$pid" ManagementAgent.status 2>/dev/null | sed -n 's/^URL *: *\(service:jmx:.*\)$/\1/p')
  [ -n "$url" ] || { echo "no local management agent in $n"; return 0; }
  "$JAVA" -cp "$(kafka_lib)/*" org.apache.kafka.tools.JmxTool --jmx-url "$url" --attributes Count --one-time true \
    --report-format properties \
    --object-name 'kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce,version=*' \
    --object-name 'kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Fetch,version=*' \
    --object-name 'kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec' \
    --object-name 'kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec' 2>/dev/null \
    | tr -d '\r' | sed -n 's/^\(.*\):Count=\([0-9]*\)$/\1 \2/p'
}

# profile_counts BEFORE AFTER: each counter's growth over the window.
profile_counts() {
  awk 'FILENAME == ARGV[1] { c0[$1] = $2; next } { printf "%-110s %12d\n", $1, $2 - c0[$1] }' "$1" "$2"
}

profile_summary() {
  local dir=$1 f
  for f in "$dir"/*.commandstats.txt "$dir"/*.requests.txt "$dir"/*.cpu-by-package.txt "$dir"/*.perf.txt; do
    [ -f "$f" ] || continue
    echo "== ${f##*/}"
    head -40 "$f"
    echo
  done
}
