# bin/seckill chaos --cluster: faults in combination on an isolated cluster of its own. Sourced by bin/seckill (after
# configure), not run. The run itself is dev.seckill.chaos.Chaos (chaos/): a workload of overlapping sales through the
# load balancer while a seeded schedule kills, pauses and partitions nodes, then everything healed, settled and
# checked; this file starts the cluster from nothing, runs it, and makes sure nothing stays paused or cut off.
#
# The cluster's run directory is .run/chaos-cluster (SECKILL_CHAOS_CLUSTER_RUN_DIR); its ports are the CHAOS_CLUSTER_
# lines of bin/stack.env (SECKILL_CHAOS_CLUSTER_<NAME>_PORT moves one). Partitions tell the nodes apart although all
# listen on 127.0.0.1: every node starts inside a cgroup v2 of its own (SECKILL_CHAOS_CGROUP/<node>, by default
# <cgroup2 mount>/seckill-chaos/<lb port>/<node>), and a cut is an iptables DROP rule matching the sender's cgroup,
# in the chain SECKILL_CHAOS_<lb port> jumped to from OUTPUT (docs/chaos.md, "Faults"). It needs root.

CHAOS_USAGE="usage: bin/seckill chaos --cluster [--minutes M (20)] [--seed S (random, printed)]
                     [--faults kill,pause,partition (all)] [--out DIR (.run/chaos-cluster/report)] [--plan]
  --plan prints the schedule the options give and exits, starting and injecting nothing"

chaos_jar() { echo "$HOME_DIR/chaos/target/seckill-chaos.jar"; }

# The chaos module is rebuilt when its own sources or the checker's changed (with the modules it uses, in one reactor
# build).
chaos_build_module() {
  [ -f "$(chaos_jar)" ] && [ -z "$(cd "$HOME_DIR" && find chaos/pom.xml chaos/src/main seckill-check/pom.xml \
    seckill-check/src/main seckill-testkit/src/main -newer "$(chaos_jar)" -type f | head -1)" ] && return 0
  checkout_jars_in_use && die "the chaos sources changed, but a stack runs from the checkout's jars: build once it is down (bin/seckill build)"
  cmd_build
  touch "$(chaos_jar)"
}

# Where the node cgroups and the rules go (exported: the Java side and the nodes' restarts use the same).
chaos_places() {
  CHAOS_CGROUP_MOUNT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
  [ -n "$CHAOS_CGROUP_MOUNT" ] || die "chaos needs a cgroup2 file system (partitions tell the nodes apart by their cgroup)"
  SECKILL_CHAOS_CGROUP=$(chaos_cgroup_dir)
  export SECKILL_CHAOS_CGROUP
  export SECKILL_CHAOS_CHAIN=${SECKILL_CHAOS_CHAIN:-SECKILL_CHAOS_$SECKILL_CLUSTER_LB_PORT}
  mkdir -p "$SECKILL_CHAOS_CGROUP" || die "failed to make the cgroup $SECKILL_CHAOS_CGROUP"
}

# In this command every node starts inside its own cgroup: the shell that spawns it steps into the node's cgroup for
# the fork and back out after, so the node (and all it forks) and every socket it opens belong there from the start.
# A socket keeps the cgroup its process had when it made it, so a node moved later would keep its old connections.
eval "chaos_plain_spawn() $(declare -f spawn | tail -n +2)"
spawn() {
  local cg="$SECKILL_CHAOS_CGROUP/$1" back
  back=$(sed -n 's/^0:://p' "/proc/$BASHPID/cgroup")
  mkdir -p "$cg"
  echo "$BASHPID" > "$cg/cgroup.procs"
  chaos_plain_spawn "$@"
  echo "$BASHPID" > "$CHAOS_CGROUP_MOUNT$back/cgroup.procs"
}

# Nothing stays stopped or cut off: SIGCONT to every process of every node cgroup and to every node's process group
# (spawn made each a session leader), and the chain flushed, unhooked and deleted. Never fails. Runs on the cluster.
chaos_release() {
  local f p n
  for f in "$SECKILL_CHAOS_CGROUP"/*/cgroup.procs; do
    [ -f "$f" ] || continue
    while read -r p; do kill -CONT "$p" 2>/dev/null || true; done < "$f"
  done
  for n in "${NODES[@]}"; do
    if p=$(recorded_pid "$n"); then kill -CONT -- "-$p" 2>/dev/null || true; fi
  done
  iptables -w 5 -F "$SECKILL_CHAOS_CHAIN" 2>/dev/null || true
  while iptables -w 5 -D OUTPUT -j "$SECKILL_CHAOS_CHAIN" 2>/dev/null; do :; done
  iptables -w 5 -X "$SECKILL_CHAOS_CHAIN" 2>/dev/null || true
}

# The end of the command, however it ends (the EXIT trap): released, the cluster stopped, its empty cgroups removed.
chaos_cleanup() {
  in_cluster chaos_release
  say "stopping the chaos cluster"
  in_cluster cmd_down || true
  chaos_cgroups_remove
}

cmd_chaos() {
  local args=() out="" plan=false
  while [ $# -gt 0 ]; do
    case $1 in
      --minutes | --seed | --faults)
        [ $# -ge 2 ] || die "$1 needs a value; $CHAOS_USAGE"
        args+=("$1" "$2"); shift ;;
      --out) [ $# -ge 2 ] || die "$1 needs a value; $CHAOS_USAGE"; out=$2; shift ;;
      --plan) plan=true ;;
      -h | --help) echo "$CHAOS_USAGE"; return 0 ;;
      *) die "unknown chaos option: $1; $CHAOS_USAGE" ;;
    esac
    shift
  done
  use_jdk
  mkdir -p "$CACHE"
  SCOPE=CLUSTER_ isolated_stack CHAOS_CLUSTER "${SECKILL_CHAOS_CLUSTER_RUN_DIR:-$HOME_DIR/.run/chaos-cluster}"
  if [ "$plan" = true ]; then
    build_if_stale
    chaos_build_module
    in_cluster chaos_java "${args[@]}" --plan
    return
  fi
  [ "$(id -u)" = 0 ] || die "chaos needs root: pauses signal the nodes, partitions are cgroups and iptables rules"
  install_stack
  install_packages iptables
  build_if_stale
  chaos_build_module
  # The options checked before anything is made or started.
  in_cluster chaos_java "${args[@]}" --plan > /dev/null || { say "the chaos options above are not valid"; exit 2; }
  chaos_places
  out=${out:-$SECKILL_CLUSTER_RUN_DIR/report}
  case $out in /*) ;; *) out="$PWD/$out" ;; esac
  # From nothing: no data of an earlier run, nothing of one left paused or cut off.
  in_cluster chaos_release
  in_cluster cmd_down
  rm -rf "$SECKILL_CLUSTER_RUN_DIR"
  trap chaos_cleanup EXIT
  local t0=$SECONDS rc=0
  say "starting the chaos cluster in $SECKILL_CLUSTER_RUN_DIR"
  in_cluster all_up
  say "chaos cluster up in $((SECONDS - t0)) s"
  in_cluster chaos_java "${args[@]}" --out "$out" || rc=$?
  return $rc
}

# The run, with the cluster's environment (as the tests read it: the test kit's ClusterStack). Runs on the cluster.
chaos_java() {
  SECKILL_REDIS_NODES=$(joined "redis://%s" redis)
  export SECKILL_HOME="$HOME_DIR" SECKILL_ADMIN_TOKEN="$ADMIN_TOKEN" SECKILL_TOKEN_SECRET="$TOKEN_SECRET" \
    SECKILL_LINE_SECRET="$LINE_SECRET" SECKILL_REDIS_PASSWORD="$REDIS_PASSWORD" SECKILL_DB_PASSWORD="$DB_PASSWORD" \
    SECKILL_REDIS_NODES
  "$JAVA" "${JAVA_FLAGS[@]}" -Xms64m -Xmx512m -XX:+UseSerialGC -jar "$(chaos_jar)" "$@"
}
