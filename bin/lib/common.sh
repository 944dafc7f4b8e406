# Shared helpers for bin/seckill: the stack's settings, messages, the JDK, ports, pid files, waiting. Sourced, not
# run, after HOME_DIR is set.

# LOCAL_*, TEST_* and BENCH_* defaults: the one table of ports and settings, which the test kit reads too.
# shellcheck source=../stack.env
. "$HOME_DIR/bin/stack.env"

die() { echo "seckill: $*" >&2; exit 1; }
say() { echo "seckill: $*" >&2; }

# Finds a JDK >= 21: JAVA_HOME if it qualifies, else the newest under /usr/lib/jvm (SECKILL_JVM_DIR).
find_jdk() {
  local candidates=() j v dir=${SECKILL_JVM_DIR:-/usr/lib/jvm}
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  for j in "$dir/temurin-25-jdk-amd64" $(printf '%s\n' "$dir"/*/ | sort -rV); do candidates+=("${j%/}"); done
  for j in "${candidates[@]}"; do
    [ -x "$j/bin/java" ] || continue
    [ -f "$j/release" ] || continue
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$j/release")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then echo "$j"; return 0; fi
  done
  return 1
}

# Sets JAVA_HOME, JAVA and JAVA_FLAGS for a JDK 21+, or fails saying what to install.
# JAVA and JAVA_FLAGS are its output, read where a JVM starts (components.sh, bench.sh, bin/seckill).
# shellcheck disable=SC2034
use_jdk() {
  local jvms
  # The names go into a message for a human, as ls lists them.
  # shellcheck disable=SC2012
  jvms=$(ls "${SECKILL_JVM_DIR:-/usr/lib/jvm}" 2>/dev/null | tr '\n' ' ')
  # One line, and what to install: Debian 12's apt has no JDK 21.
  JAVA_HOME=$(find_jdk) || die "no JDK 21+ found (JAVA_HOME ${JAVA_HOME:-unset}; ${SECKILL_JVM_DIR:-/usr/lib/jvm}: ${jvms:-empty}): Debian 12's apt has none; install Eclipse Temurin 21 or 25 (Adoptium's apt repository, apt-get install temurin-25-jdk) or unpack any JDK 21+ and set JAVA_HOME to it"
  export JAVA_HOME
  JAVA="$JAVA_HOME/bin/java"
  # JDK 23+ warns when Netty or lz4 call sun.misc.Unsafe; JDK 21 and 22 refuse the flag that silences it.
  JAVA_FLAGS=(--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED)
  [ "$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$JAVA_HOME/release")" -ge 23 ] || JAVA_FLAGS=(--enable-native-access=ALL-UNNAMED)
}

# Maven through the project's wrapper: the version .mvn/wrapper/maven-wrapper.properties names, fetched from Maven
# Central into ~/.m2/wrapper on first use, so no system Maven is needed. Needs use_jdk first (JAVA_HOME).
mvn_run() { "$HOME_DIR/mvnw" "$@"; }

# The NAMEs of bin/stack.env's PROFILE_NAME keys (stack_keys LOCAL: EDGE_PORT, ..., DEMO_LOGIN). No setting of the
# single stack is named CLUSTER_..., so TEST's keys are not mixed up with those of the profile TEST_CLUSTER.
stack_keys() { sed -n "s/^$1_\([A-Z_]*\)=.*/\1/p" "$HOME_DIR/bin/stack.env" | grep -v '^CLUSTER_' || true; }

# Which topology a command acts on: SCOPE is empty for the single stack and CLUSTER_ for the cluster (--cluster).
# Each reads its own variables, so one environment can describe both (the test command runs one after the other):
# the single stack SECKILL_RUN_DIR and SECKILL_NAME, the cluster SECKILL_CLUSTER_RUN_DIR and SECKILL_CLUSTER_NAME.
SCOPE=${SCOPE:-}

# Sets RUN and, for every NAME of the scope's profile in bin/stack.env (LOCAL_NAME for the single stack, CLUSTER_NAME
# for the cluster), NAME (EDGE_PORT, KAFKA_PARTITIONS, ...): SECKILL_<SCOPE>NAME if the environment has it, else the
# default. Which stack a command acts on is thus only the environment (and --cluster).
stack_settings() {
  local profile=LOCAL rundir=SECKILL_RUN_DIR dir=local name var def
  if [ -n "$SCOPE" ]; then profile=CLUSTER rundir=SECKILL_CLUSTER_RUN_DIR dir=cluster; fi
  RUN=${!rundir:-$HOME_DIR/.run/$dir}
  case $RUN in /*) ;; *) RUN="$HOME_DIR/$RUN" ;; esac
  for name in $(stack_keys "$profile"); do
    var=SECKILL_$SCOPE$name def=${profile}_$name
    printf -v "$name" '%s' "${!var:-${!def}}"
  done
  # NODES is read by components.sh and bin/seckill.
  # shellcheck disable=SC2034
  if [ -n "$SCOPE" ]; then IFS=, read -r -a NODES <<< "$TOPOLOGY"; fi
}

# isolated_stack PROFILE RUN_DIR: exports the environment of an isolated stack (PROFILE TEST, BENCH or, for the
# cluster scope, TEST_CLUSTER of bin/stack.env) in RUN_DIR, for stack_settings and every process started from here
# on. A port comes from SECKILL_PROFILE_NAME, else the profile's default; another setting from SECKILL_<SCOPE>NAME,
# else the profile's default.
isolated_stack() {
  local p=$1 name var def
  export "SECKILL_${SCOPE}RUN_DIR=$2"
  for name in $(stack_keys "$p"); do
    def=${p}_$name
    case $name in *_PORT) var=SECKILL_${p}_$name ;; *) var=SECKILL_$SCOPE$name ;; esac
    export "SECKILL_$SCOPE$name=${!var:-${!def}}"
  done
}

# ---------------------------------------------------------------- nodes
# Where nodes live. Natively every node is a private process on this machine's loopback. In a container
# (SECKILL_CONTAINER=true, set by the images of docker/Dockerfile) each node is a host of its own on the compose
# network, named after the node (redis, kafka-2, ...), listening on every address of its container, on the same port.
in_container() { [ "${SECKILL_CONTAINER:-false}" = true ]; }
# The address a node listens on.
bind_address() { if in_container; then echo 0.0.0.0; else echo 127.0.0.1; fi; }
# node_host NODE: the name its peers reach it by.
node_host() { if in_container; then echo "$1"; else echo 127.0.0.1; fi; }
# node_addr NODE: its IP address (Redis Cluster is created from addresses, not names).
node_addr() {
  if in_container; then getent hosts "$1" | awk '{ print $1; found = 1; exit } END { exit !found }'; else echo 127.0.0.1; fi
}

# A node is one process of a stack. The single stack has one node of each kind, named after it (redis, db, kafka,
# service, writer, edge); the cluster numbers the nodes of a kind it runs several of (redis-1 ... redis-6). Node n
# of a kind listens on the kind's port + n - 1 (edge-2 on EDGE_PORT + 1).
kind_of() { echo "${1%-[0-9]*}"; }
node_index() { case $1 in *-[0-9]*) echo "${1##*-}" ;; *) echo 1 ;; esac; }

# node_port NODE [SETTING]: the node's port of SETTING (default its kind's: redis-2 -> REDIS_PORT + 1); fails when
# the stack has no such setting (REDIS_BUS_PORT outside the cluster).
node_port() {
  local var=${2:-}
  if [ -z "$var" ]; then var=$(kind_of "$1"); var="${var^^}_PORT"; fi
  [ -n "${!var:-}" ] || return 1
  echo $((${!var} + $(node_index "$1") - 1))
}

port_in_use() { [ -n "$(ss -ltnH "sport = :$1" 2>/dev/null)" ]; }

pidfile() { echo "$RUN/pids/$1.pid"; }
recorded_pid() { local p; p=$(cat "$(pidfile "$1")" 2>/dev/null) && [[ "$p" =~ ^[0-9]+$ ]] && echo "$p"; }

# proc_running PID: the process exists and is not a zombie. A killed process stays a zombie until its parent (here
# PID 1, once bin/seckill has exited) reaps it, and `kill -0` calls a zombie alive: state Z in /proc/PID/stat.
proc_running() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [[ "${stat:0:1}" != [ZX] ]]
}

# What the command line of each node's process holds, one mark a line: how a recorded pid is known to still be that
# node of this stack, and not a program the kernel has since given the pid to. Redis shows its listening address as
# its title; nginx's master shows "nginx: master process" and its arguments. The command line is read with a space
# after every argument, so a mark ending in a space matches a whole argument (service-1, not service-12).
component_marks() {
  case $(kind_of "$1") in
    redis) printf '%s\n' redis-server ":$(node_port "$1")" ;;
    db) printf '%s\n' mariadbd "--defaults-file=$RUN/db/my.cnf" ;;
    kafka) printf '%s\n' kafka.Kafka "$RUN/$1/server.properties " ;;
    service) printf '%s\n' "-Dseckill.run=$RUN/$1 " /helidon-app.jar ;;
    writer) printf '%s\n' "-Dseckill.run=$RUN/$1 " /kafka-consumer.jar ;;
    edge | lb) printf '%s\n' "nginx: master process" "-p $RUN/$1 " ;;
  esac
}

# is_component NODE PID: PID is running and is that node of this stack.
is_component() {
  local cmd mark
  proc_running "$2" || return 1
  cmd="$(tr '\0' ' ' 2>/dev/null < "/proc/$2/cmdline") " || return 1
  while IFS= read -r mark; do
    [[ "$cmd" == *"$mark"* ]] || return 1
  done < <(component_marks "$1")
}

# Prints the pid of a component this stack started, if that process is still that component and alive.
live_pid() {
  local p
  p=$(recorded_pid "$1") && is_component "$1" "$p" || return 1
  echo "$p"
}

# Refuses to start a component on a port somebody else holds.
claim_port() {
  local name=$1 port=$2
  port_in_use "$port" && die "port $port for $name is already taken by another process (set ${3:-its port variable} to move it)"
  return 0
}

# wait_for NAME SECONDS LOG CMD...: polls CMD until it succeeds; fails with the log path if it does not in time.
wait_for() {
  local name=$1 secs=$2 log=$3; shift 3
  # Containers start together (three Kafka JVMs, six Redis, the database) and compete for the cores, and giving up
  # there only restarts the node from the beginning: they wait four times as long.
  if in_container; then secs=$((secs * 4)); fi
  local deadline=$((SECONDS + secs)) pid
  pid=$(recorded_pid "$name") || die "$name has no pid file: see $log"
  until "$@" >/dev/null 2>&1; do
    # Not is_component: right after spawn the pid may not have exec'd the component's command yet.
    proc_running "$pid" || die "$name failed to start (process exited): see $log"
    [ $SECONDS -lt $deadline ] || die "$name did not become ready in ${secs}s: see $log"
    sleep 0.2
  done
}

# await "CMD [ARG...]" SECONDS: polls CMD (word-split) until it succeeds, at most SECONDS; fails when it never did.
await() {
  local deadline=$((SECONDS + $2))
  # The command is split into words on purpose.
  # shellcheck disable=SC2086
  until $1 > /dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.5
  done
}

# spawn NAME LOG CMD...: runs CMD in its own session in the background and records its pid.
spawn() {
  local name=$1 log=$2; shift 2
  mkdir -p "$RUN/pids" "$(dirname "$log")"
  setsid "$@" >>"$log" 2>&1 < /dev/null &
  echo $! > "$(pidfile "$name")"
}

# stop_pid NAME SIGNAL SECONDS: signals the component's recorded pid and waits for it to exit, then SIGKILLs it.
# A pid that is no longer the component (dead, a zombie, or another program now) is left alone. A process that
# exits between the check and the signal is not an error.
stop_pid() {
  local name=$1 sig=$2 secs=$3 pid deadline
  pid=$(live_pid "$name") || { rm -f "$(pidfile "$name")"; return 0; }
  kill "-$sig" "$pid" 2>/dev/null || true
  deadline=$((SECONDS + secs))
  while is_component "$name" "$pid" && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
  if is_component "$name" "$pid"; then
    # Its whole process group (spawn made it a session leader): nginx workers outlive a killed master otherwise.
    say "$name did not stop in ${secs}s; killing it"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    deadline=$((SECONDS + 10))
    while is_component "$name" "$pid" && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
    ! is_component "$name" "$pid" || die "$name (pid $pid) survived SIGKILL"
  fi
  rm -f "$(pidfile "$name")"
}

# Where chaos keeps the cluster's node cgroups: SECKILL_CHAOS_CGROUP, else <cgroup2 mount>/seckill-chaos/<lb port>;
# nothing when no cgroup2 file system is mounted.
chaos_cgroup_dir() {
  local mount
  mount=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
  [ -n "$mount" ] || return 0
  echo "${SECKILL_CHAOS_CGROUP:-$mount/seckill-chaos/$SECKILL_CLUSTER_LB_PORT}"
}

# Once the cluster's nodes are stopped, the node cgroups a chaos run made (bin/seckill chaos, ChaosIT) are removed,
# and the shared parent when no other cluster's is left: rmdir takes only empty ones, so one in use stays.
chaos_cgroups_remove() {
  local dir
  dir=$(chaos_cgroup_dir)
  [ -n "$dir" ] && [ -d "$dir" ] || return 0
  rmdir "$dir"/*/ "$dir" 2>/dev/null || true
  rmdir "$(dirname "$dir")" 2>/dev/null || true
}

http_ok() { curl -fsS -m 3 -o /dev/null "$1"; }

# 48 random bytes, base64url without padding: 64 characters.
new_secret() { head -c 48 /dev/urandom | base64 -w0 | tr '+/' '-_' | tr -d '='; }

# kept_secret VAR FILE MIN: a secret from the environment (VAR), else from FILE in the run directory (mode 600),
# made once. The service refuses short secrets, so a short one in VAR fails here with its name, and a short FILE
# (made before the minimum) is made anew, which ends the sessions signed with the old one.
kept_secret() {
  local var=$1 file="$RUN/$2" min=$3 v
  v=${!var:-}
  # A container keeps no secret of its own: it is given those it needs (cmd_run checks them) and nothing else.
  if in_container; then echo "$v"; return; fi
  if [ -n "$v" ]; then
    [ ${#v} -ge "$min" ] || die "$var is shorter than $min characters: use a longer secret"
    echo "$v"
    return
  fi
  v=$(cat "$file" 2>/dev/null || true)
  if [ ${#v} -lt "$min" ]; then
    [ -z "$v" ] || say "$2 is shorter than $min characters: making a new one in $file"
    mkdir -p "$RUN"
    (umask 077; new_secret > "$file")
    v=$(cat "$file")
  fi
  echo "$v"
}
