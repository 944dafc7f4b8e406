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

BENCH_USAGE="usage: bin/seckill bench [--stock N] [--users N] [--attempts N] [--connections N] [--duration S]
                     [--out DIR] [--ceiling-seconds S] [--rounds N] [--no-ceilings] [--reuse] [--keep]
                     [--flood-levels N,N...|none] [--flood-seconds S]
                     [--pay-ratio R] [--pay-window S] [--expiry-orders N] [--protection]"

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
bench_use_snapshots() {
  service_jar() { echo "$RUN/jars/service/helidon-app.jar"; }
  writer_jar() { echo "$RUN/jars/writer/kafka-consumer.jar"; }
}

bench_jar() { echo "$HOME_DIR/bench/target/seckill-bench.jar"; }

# `up` semantics: build_if_stale rebuilds the checkout only when no JVM of any stack runs from its jars.
bench_ensure_jars() {
  build_if_stale
  bench_build_module
}

# The bench is rebuilt when its own sources changed. It is built with the modules it uses (the service's classes,
# the writer's batch path, the test kit) in one reactor build, which must not run under a JVM of the checkout's jars.
bench_build_module() {
  [ -f "$(bench_jar)" ] && [ -z "$(cd "$HOME_DIR" && find bench/pom.xml bench/src/main -newer "$(bench_jar)" -type f | head -1)" ] \
    && return 0
  checkout_jars_in_use && die "the bench sources changed, but a stack runs from the checkout's jars: build once it is down (bin/seckill build)"
  cmd_build
  # The jar plugin leaves an up-to-date jar alone; mark it current so the next run does not build again.
  touch "$(bench_jar)"
}

cmd_bench() {
  local reuse=false keep=false args=()
  while [ $# -gt 0 ]; do
    case $1 in
      --reuse) reuse=true ;;
      --keep) keep=true ;;
      --no-ceilings | --protection) args+=("$1") ;;
      --stock | --users | --attempts | --connections | --duration | --out | --ceiling-seconds | --rounds | --first-user \
        | --flood-levels | --flood-seconds | --pay-ratio | --pay-window | --expiry-orders)
        [ $# -ge 2 ] || die "$1 needs a value; $BENCH_USAGE"
        args+=("$1" "$2"); shift ;;
      -h | --help) echo "$BENCH_USAGE"; return 0 ;;
      *) die "unknown bench option: $1; $BENCH_USAGE" ;;
    esac
    shift
  done
  command -v wrk > /dev/null && command -v redis-benchmark > /dev/null || cmd_install
  use_jdk
  mkdir -p "$CACHE"

  BENCH_STARTED=""
  if [ "$reuse" = true ]; then
    local c
    for c in "${COMPONENTS[@]}"; do
      live_pid "$c" > /dev/null || die "--reuse: $c of the stack in $RUN is not running (bin/seckill up, or drop --reuse)"
    done
    grep -q "set_real_ip_from 127.0.0.1" "$RUN/edge/conf/conf.d/00-tunables.conf" 2>/dev/null \
      || say "warning: this edge ignores X-Forwarded-For from loopback, so the whole crowd shares one per-IP limit (SECKILL_EDGE_TRUSTED_PROXIES=127.0.0.1)"
    bench_build_module
  else
    bench_isolated_stack
    cmd_install
    bench_ensure_jars
    bench_use_snapshots
    # Whatever this run starts, it stops at the end (even on failure), unless --keep.
    [ "$keep" = true ] || trap 'if [ -n "$BENCH_STARTED" ]; then say "stopping the bench stack (--keep leaves it running)"; cmd_down $BENCH_STARTED; fi' EXIT
    local c
    for c in "${COMPONENTS[@]}"; do
      live_pid "$c" > /dev/null && continue
      case $c in service) bench_snapshot_jar service helidon-app ;; writer) bench_snapshot_jar writer kafka-consumer ;; esac
      BENCH_STARTED+=" $c"
      start_component "$c"
    done
  fi

  # The bench reads the stack as the tests do (the test kit's Stack): its ports, run directory and secrets.
  export SECKILL_HOME="$HOME_DIR" SECKILL_RUN_DIR="$RUN" SECKILL_ADMIN_TOKEN="$ADMIN_TOKEN" SECKILL_TOKEN_SECRET="$TOKEN_SECRET"
  local name
  for name in $(stack_keys LOCAL); do
    case $name in *_PORT) export "SECKILL_$name=${!name}" ;; esac
  done
  say "bench against the stack in $RUN (edge :$EDGE_PORT, service :$SERVICE_PORT, admin :$ADMIN_PORT)"
  local rc=0
  "$JAVA" "${JAVA_FLAGS[@]}" -Xms64m -Xmx768m -XX:+UseSerialGC \
    -cp "$(bench_jar)" dev.seckill.bench.Bench \
    --out "$RUN/report" "${args[@]}" || rc=$?
  return $rc
}
