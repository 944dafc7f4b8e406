# bin/seckill bench: a flash sale under load through the edge, the ceilings of the same machine measured in the same
# run, and the invariant check read from MySQL and Redis. Sourced by bin/seckill (after configure), not run.
# The run itself is dev.seckill.bench.Bench (bench/); this file only prepares a stack for it. See bench/README.md.
#
# By default the bench gets its own isolated stack (run directory .run/bench, SECKILL_BENCH_RUN_DIR; the BENCH_*
# ports and settings of bin/stack.env, which SECKILL_BENCH_<NAME>_PORT move), started here if it is not running and
# stopped again at the end unless --keep. Its edge believes X-Forwarded-For from loopback, so one machine can act as
# 100,000 clients, and its per-IP limit is generous (SECKILL_EDGE_RATE / _BURST 1000 unless set), so the crowd meets
# the system's real layers rather than one bucket.
# --reuse runs against the stack the environment names (SECKILL_RUN_DIR and the ports, as every command) and
# starts or stops nothing.

bench_isolated_stack() {
  isolated_stack BENCH "${SECKILL_BENCH_RUN_DIR:-$HOME_DIR/.run/bench}"
  configure
}

# The bench stack runs the service and the writer from a copy of their jars (and libs) in its run directory, taken
# when it starts them, so a rebuild in the checkout during a run cannot swap classes under them. The copy comes from
# the checkout's target/ directories, or from SECKILL_BENCH_JARS_FROM (a directory with helidon-app/target and
# kafka-consumer/target, e.g. a `git archive` of a commit built elsewhere) to bench another build.
bench_snapshot_jar() {
  local name=$1 module=$2 dst="$RUN/jars/$1" src="${SECKILL_BENCH_JARS_FROM:-$HOME_DIR}/$2/target"
  [ -f "$src/$module.jar" ] || die "no $src/$module.jar to run the bench's $name from"
  rm -rf "$dst"
  mkdir -p "$dst"
  cp -p -r "$src/$module.jar" "$src/libs" "$dst/" || die "failed to copy the $name jars into $dst"
}

# From here on components.sh starts the service and the writer from the copies (this command only).
# JAR_COPIES is read by node_jar (components.sh).
# shellcheck disable=SC2034
bench_use_snapshots() { JAR_COPIES=true; }

# The field's tools the bench runs: wrk and redis-benchmark (bench/ceilings.sh), pidstat (CPU and memory).
bench_tools_installed() {
  command -v wrk > /dev/null && command -v redis-benchmark > /dev/null && command -v pidstat > /dev/null
}

bench_jar() { echo "$HOME_DIR/bench/target/seckill-bench.jar"; }

# `up` semantics: build_if_stale rebuilds the checkout only when no JVM of any stack runs from its jars.
bench_ensure_jars() {
  build_if_stale
  bench_build_module
}

# The bench is rebuilt when its own sources or the checker's changed. It is built with the modules it uses (the
# service's classes, the writer's batch path, the checker, the test kit) in one reactor build, which must not run
# under a JVM of the checkout's jars.
bench_build_module() {
  [ -f "$(bench_jar)" ] && [ -z "$(cd "$HOME_DIR" && find bench/pom.xml bench/src/main seckill-check/pom.xml \
    seckill-check/src/main microbench/pom.xml microbench/src/main -newer "$(bench_jar)" -type f | head -1)" ] && return 0
  checkout_jars_in_use && die "the bench sources changed, but a stack runs from the checkout's jars: build once it is down (bin/seckill build)"
  cmd_build
  # The jar plugin leaves an up-to-date jar alone; mark it current so the next run does not build again.
  touch "$(bench_jar)"
}

# Starts what is not running of the bench stack, the service and the writer from copies of their jars. Whatever it
# starts is stopped when the shell exits (even on failure), unless keep is true.
bench_single_up() {
  local keep=$1 c
  bench_use_snapshots
  [ "$keep" = true ] || trap 'if [ -n "$BENCH_STARTED" ]; then say "stopping the bench stack (--keep leaves it running)"; cmd_down $BENCH_STARTED; fi' EXIT
  for c in "${COMPONENTS[@]}"; do
    live_pid "$c" > /dev/null && continue
    case $c in service) bench_snapshot_jar service helidon-app ;; writer) bench_snapshot_jar writer kafka-consumer ;; esac
    BENCH_STARTED+=" $c"
    start_component "$c"
  done
}

cmd_bench() {
  local help reuse keep hot hot_seconds connections out sign_in jmh usage options
  use_jdk
  # A fresh clone has no bench jar yet, and building it needs what install brings.
  [ -f "$(bench_jar)" ] || cmd_install
  bench_build_module
  # The options are parsed once, by the bench's own parser (BenchOptions): it hands back what this script needs.
  options=$(bench_main dev.seckill.bench.scenario.BenchOptions "$@") || exit 2
  eval "$options"
  if [ "$help" = true ]; then echo "$usage"; return 0; fi
  bench_tools_installed || cmd_install
  mkdir -p "$CACHE"

  BENCH_STARTED=""
  local own_jwks=${SECKILL_JWT_JWKS_URL-}
  if [ "$reuse" = true ]; then
    local c
    for c in "${COMPONENTS[@]}"; do
      live_pid "$c" > /dev/null || die "--reuse: $c of the stack in $RUN is not running (bin/seckill up, or drop --reuse)"
    done
    grep -q "set_real_ip_from 127.0.0.1" "$RUN/edge/conf/conf.d/00-tunables.conf" 2>/dev/null \
      || say "warning: this edge ignores X-Forwarded-For from loopback, so the whole crowd shares one per-IP limit (SECKILL_EDGE_TRUSTED_PROXIES=127.0.0.1)"
    if [ "$sign_in" = true ]; then bench_jwks_serve; fi
  else
    bench_isolated_stack
    cmd_install
    bench_ensure_jars
    # Before the stack starts, so that a service started now fetches the JWKS at its start.
    if [ "$sign_in" = true ]; then bench_jwks_serve; fi
    bench_single_up "$keep"
  fi

  # The bench takes the last --out, so the report directory is the caller's when given (relative to its directory).
  out=${out:-$RUN/report}
  case $out in /*) ;; *) out="$PWD/$out" ;; esac
  if [ "$hot" = true ]; then
    bench_hot_sale "$out" "$hot_seconds" "$connections"
  elif [ "$sign_in" = true ] && [[ " $BENCH_STARTED " != *" service "* ]]; then
    say "sign-in: restarting the service with the bench's JWKS"
    cmd_down service
    start_component service
  fi
  bench_micro "$out" "$jmh"
  bench_java "$RUN/report" "$@"
  if [ "$sign_in" = true ]; then
    kill "$BENCH_JWKS_PID" 2>/dev/null || true
    if [ "$reuse" = true ]; then
      say "sign-in: restarting the service with its own sign-in settings"
      if [ -n "$own_jwks" ]; then export SECKILL_JWT_JWKS_URL=$own_jwks; else unset SECKILL_JWT_JWKS_URL; fi
      cmd_down service
      start_component service
    fi
  fi
  say "one order of the run, followed from the edge to its row (bin/seckill trace; also in $out/trace.txt):"
  trace_a_written_order "$out/trace.txt"
}

# The bench's stand-in for a shop's identity provider (dev.seckill.bench.load.ShopIdentity, bench/README.md): its
# JWKS on 127.0.0.1:SECKILL_BENCH_JWKS_PORT (its default below), keys and tokens in $RUN/jwks, until this shell exits. Every
# service started from here on gets SECKILL_JWT_JWKS_URL (at the stack's start, at the hot sale's restarts, or at
# one restart of its own when the service already ran), so the large sale can be run with RS256 and ES256 buyers;
# HS256 still verifies with the shared secret.
bench_jwks_serve() {
  local port=${SECKILL_BENCH_JWKS_PORT:-24084} deadline=$((SECONDS + 30))
  claim_port jwks "$port" SECKILL_BENCH_JWKS_PORT
  mkdir -p "$RUN/jwks"
  "$JAVA" -Xmx64m -XX:+UseSerialGC -cp "$(bench_jar)" dev.seckill.bench.load.ShopIdentity "$RUN/jwks" "$port" $$ \
    > "$RUN/jwks/server.log" 2>&1 &
  BENCH_JWKS_PID=$!
  export SECKILL_JWT_JWKS_URL="http://127.0.0.1:$port/jwks.json"
  until http_ok "$SECKILL_JWT_JWKS_URL" 2>/dev/null; do
    kill -0 "$BENCH_JWKS_PID" 2>/dev/null || die "the bench's JWKS server failed: see $RUN/jwks/server.log"
    [ $SECONDS -lt $deadline ] || die "the bench's JWKS server did not answer in 30 s: see $RUN/jwks/server.log"
    sleep 0.2
  done
  say "sign-in: the bench's JWKS at $SECKILL_JWT_JWKS_URL"
}

# bench_hot_sale OUT SECONDS CONNECTIONS: the hot sale (dev.seckill.bench.scenario.HotSale) twice, the service
# restarted before each run: with redis.coalesce-max 1 (one script call per buyer), then with the setting the service
# normally gets (its default, or REDIS_COALESCE_MAX from this environment), which it keeps for the rest of the
# bench. Each run leaves hot-sale-<mode>.json in OUT; the bench's report adds them. With --reuse it restarts the
# stack's own service the same way.
bench_hot_sale() {
  local out=$1 seconds=$2 connections=$3 mode max
  mkdir -p "$out"
  rm -f "$out"/hot-sale-*.json
  for mode in one-call coalescing; do
    max=1
    [ "$mode" = one-call ] || max=${REDIS_COALESCE_MAX:-default}
    say "hot sale ($mode): restarting the service"
    cmd_down service
    if [ "$mode" = one-call ]; then
      ( export REDIS_COALESCE_MAX=1; start_component service )
    else
      start_component service
    fi
    ( bench_env
      bench_main dev.seckill.bench.scenario.HotSale --mode "$mode" --coalesce-max "$max" --seconds "$seconds" \
        --connections "$connections" --out "$out" ) \
      || die "the hot sale ($mode) failed"
  done
}

# bench_micro OUT JMH: the micro-benchmarks whose figures the run's sections quote (JMH: the runner's options and
# the benchmarks' pattern BenchOptions chose; none when empty), by JMH's own runner from the microbench jar, the
# writer's against this stack's MariaDB; JMH's JSON into OUT/jmh.json, which the report reads, its output beside.
# JMH's machine-wide lock (/tmp/jmh.lock) is ignored: on a shared machine another engineer's JMH run would otherwise
# fail the bench, and it disturbs the figures no more than any other load does.
bench_micro() {
  local out=$1 args
  read -ra args <<< "$2"
  mkdir -p "$out"
  rm -f "$out/jmh.json"
  [ ${#args[@]} -gt 0 ] || return 0
  say "micro-benchmarks (JMH ${args[*]}; output in $out/jmh.txt)"
  ( bench_env
    "$JAVA" "${JAVA_FLAGS[@]}" -Djmh.ignoreLock=true -jar "$HOME_DIR/microbench/target/seckill-microbench.jar" \
      -foe true -rf json -rff "$out/jmh.json" "${args[@]}" > "$out/jmh.txt" 2>&1 ) \
    || die "the micro-benchmarks failed: see $out/jmh.txt"
}

# The environment the bench's mains read the stack from, as the tests do (the test kit's Stack): its ports, run
# directory and secrets.
bench_env() {
  export SECKILL_HOME="$HOME_DIR" SECKILL_RUN_DIR="$RUN" SECKILL_ADMIN_TOKEN="$ADMIN_TOKEN" SECKILL_TOKEN_SECRET="$TOKEN_SECRET" \
    SECKILL_LINE_SECRET="$LINE_SECRET"
  local name
  for name in $(stack_keys LOCAL); do
    case $name in *_PORT) export "SECKILL_$name=${!name}" ;; esac
  done
}

# bench_java OUT ARG...: the bench (dev.seckill.bench.Bench) against the single stack this shell is configured for,
# writing its report into OUT. It reads the stack as the tests do (the test kit's Stack): its ports, run directory and
# secrets.
bench_java() {
  local out=$1; shift
  bench_env
  say "bench against the stack in $RUN (edge :$EDGE_PORT, service :$SERVICE_PORT, admin :$ADMIN_PORT)"
  bench_main dev.seckill.bench.Bench --out "$out" "$@"
}

# bench_main CLASS ARG...: one main of the bench jar. Its libraries (Redisson, Kafka, Helidon) log through SLF4J to
# seckill-common's logback.xml, at WARN here: only the bench's own lines reach the console.
bench_main() {
  "$JAVA" "${JAVA_FLAGS[@]}" -Xms64m -Xmx768m -DSECKILL_LOG_LEVEL=WARN \
    -XX:+UseSerialGC -cp "$(bench_jar)" "$@"
}

# ---------------------------------------------------------------- bin/seckill bench --cluster
# The same flash sale on the cluster, through its load balancer, and then on the single bench stack, one after the
# other in one invocation (the other topology is stopped meanwhile, so neither shares the cores with the other), each
# followed by redis-benchmark of the purchase script (EVALSHA) on one Redis: on the cluster the master that serves
# the test sale's slot, the ceiling of one shard and so of one sale. Then the comparison, cluster / single.
#
# The cluster is an isolated one (run directory .run/bench-cluster, SECKILL_BENCH_CLUSTER_RUN_DIR; the BENCH_CLUSTER_
# ports of bin/stack.env, which SECKILL_BENCH_CLUSTER_<NAME>_PORT move), the single stack the bench's own; each is
# started here if it is not running and stopped at the end of its phase unless --keep. The quick default scenario
# (BENCH_CLUSTER_SCENARIO: 1,000 units, 20,000 users clicking up to 5 times, no sold-out flood; the single bench's
# ceilings and its large sale, whose part costs are measured on one Redis and one broker, are left out)
# takes about 10 minutes on a loaded 2-core machine with both stacks' starts; an option given replaces its default.
BENCH_CLUSTER_SCENARIO=(--stock 1000 --users 20000 --attempts 5 --connections 256 --flood-levels none --no-large-sale)
BENCH_CLUSTER_USAGE="usage: bin/seckill bench --cluster [--stock N] [--users N] [--attempts N] [--connections N]
                     [--duration S] [--out DIR] [--flood-levels N,N...|none] [--flood-seconds S] [--keep]"

cmd_bench_cluster() {
  local keep=false out="" args=("${BENCH_CLUSTER_SCENARIO[@]}")
  while [ $# -gt 0 ]; do
    case $1 in
      --keep) keep=true ;;
      --out) [ $# -ge 2 ] || die "$1 needs a value"; out=$2; shift ;;
      --stock | --users | --attempts | --connections | --duration | --flood-levels | --flood-seconds)
        [ $# -ge 2 ] || die "$1 needs a value; $BENCH_CLUSTER_USAGE"
        # The bench takes the last value of an option, so this replaces the default.
        args+=("$1" "$2"); shift ;;
      -h | --help) echo "$BENCH_CLUSTER_USAGE"; return 0 ;;
      *) die "unknown bench --cluster option: $1; $BENCH_CLUSTER_USAGE" ;;
    esac
    shift
  done
  args+=(--no-ceilings)
  # The edges' admission bounds are per edge, so at their defaults the cluster's two edges could admit twice what the
  # one edge does and the comparison would measure the knob. Set high for both unless given: the topologies' own
  # capacity is compared (each edge's limit still follows its service).
  export SECKILL_EDGE_ADMIT_RATE=${SECKILL_EDGE_ADMIT_RATE:-100000} SECKILL_EDGE_ADMIT_IN_FLIGHT=${SECKILL_EDGE_ADMIT_IN_FLIGHT:-4096}
  bench_tools_installed || cmd_install
  use_jdk
  mkdir -p "$CACHE"
  bench_isolated_stack
  SCOPE=CLUSTER_ isolated_stack BENCH_CLUSTER "${SECKILL_BENCH_CLUSTER_RUN_DIR:-$HOME_DIR/.run/bench-cluster}"
  out=${out:-$SECKILL_CLUSTER_RUN_DIR/report}
  case $out in /*) ;; *) out="$PWD/$out" ;; esac
  cmd_install
  bench_ensure_jars
  # Reports of an earlier run must not stand in for a phase of this one that failed.
  rm -rf "$out/cluster" "$out/single" "$out/comparison.md" "$out/comparison.json"
  local t0=$SECONDS rc=0
  in_cluster bench_cluster_phase "$out/cluster" "${args[@]}" || rc=$?
  # Stopped here, not by a trap in the phase's subshell (which did not stop it when the phase failed).
  if [ "$keep" != true ]; then say "stopping the bench cluster (--keep leaves it running)"; in_cluster cmd_down || rc=1; fi
  say "cluster phase took $((SECONDS - t0)) s"
  [ $rc -eq 0 ] || [ -f "$out/cluster/report.json" ] || die "the cluster phase failed before its report"
  t0=$SECONDS
  ( bench_single_phase "$out/single" "${args[@]}" ) || rc=$?
  if [ "$keep" != true ]; then say "stopping the bench stack (--keep leaves it running)"; cmd_down || rc=1; fi
  say "single-stack phase took $((SECONDS - t0)) s"
  bench_main dev.seckill.bench.Comparison "$out/cluster" "$out/single" "$out" || rc=$?
  return $rc
}

# Runs on the cluster (in_cluster: its settings there only).
bench_cluster_phase() {
  local out=$1; shift
  bench_use_snapshots
  local n missing=false
  for n in "${NODES[@]}"; do live_pid "$n" > /dev/null || missing=true; done
  if [ "$missing" = true ]; then
    # Jar copies for nodes about to start; a service or writer still running keeps the copy it runs from.
    live_pid service-1 > /dev/null || live_pid service-2 > /dev/null || bench_snapshot_jar service helidon-app
    live_pid writer-1 > /dev/null || live_pid writer-2 > /dev/null || bench_snapshot_jar writer kafka-consumer
    say "starting the bench cluster in $RUN"
    all_up
  fi
  # The bench reads a single stack (the test kit's Stack): the cluster's load balancer is its edge, service-1 and
  # writer-1 its service and writer, and the Redis seed list puts its Redis client in cluster mode. The edges' own
  # counters are read from each edge directly (the load balancer does not pass /edge/*).
  SECKILL_SERVICE_PORT=$(node_port service-1) SECKILL_ADMIN_PORT=$(node_port service-1 ADMIN_PORT)
  SECKILL_WRITER_PORT=$(node_port writer-1) SECKILL_REDIS_PORT=$(node_port redis-1) SECKILL_KAFKA_PORT=$(node_port kafka-1)
  SECKILL_KAFKA_CONTROLLER_PORT=$(node_port kafka-1 KAFKA_CONTROLLER_PORT)
  SECKILL_REDIS_NODES=$(joined "redis://%s" redis) SECKILL_BENCH_EDGES=$(joined "http://%s" edge)
  export SECKILL_HOME="$HOME_DIR" SECKILL_RUN_DIR="$RUN" SECKILL_ADMIN_TOKEN="$ADMIN_TOKEN" \
    SECKILL_TOKEN_SECRET="$TOKEN_SECRET" SECKILL_REDIS_PASSWORD="$REDIS_PASSWORD" SECKILL_DB_PASSWORD="$DB_PASSWORD" \
    SECKILL_LINE_SECRET="$LINE_SECRET" \
    SECKILL_EDGE_PORT="$LB_PORT" SECKILL_SERVICE_PORT SECKILL_ADMIN_PORT SECKILL_WRITER_PORT SECKILL_REDIS_PORT \
    SECKILL_DB_PORT="$DB_PORT" SECKILL_KAFKA_PORT SECKILL_KAFKA_CONTROLLER_PORT SECKILL_REDIS_NODES SECKILL_BENCH_EDGES
  say "bench against the cluster in $RUN (load balancer :$LB_PORT)"
  local rc=0
  bench_main dev.seckill.bench.Bench --out "$out" "$@" || rc=$?
  bench_main dev.seckill.bench.scenario.ShardCeiling --cluster --out "$out" || rc=$?
  return $rc
}

bench_single_phase() {
  local out=$1; shift
  BENCH_STARTED=""
  # keep: the caller stops the stack after the phase.
  bench_single_up true
  local rc=0
  bench_java "$out" "$@" || rc=$?
  bench_main dev.seckill.bench.scenario.ShardCeiling --out "$out" || rc=$?
  return $rc
}
