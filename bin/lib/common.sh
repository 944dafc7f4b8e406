# Shared helpers for bin/seckill: the stack's settings, messages, the JDK, ports, pid files, waiting. Sourced, not
# run, after HOME_DIR is set.

# LOCAL_*, TEST_* and BENCH_* defaults: the one table of ports and settings, which the test kit reads too.
. "$HOME_DIR/bin/stack.env"

die() { echo "seckill: $*" >&2; exit 1; }
say() { echo "seckill: $*" >&2; }

# Finds a JDK >= 21: JAVA_HOME if it qualifies, else the newest under /usr/lib/jvm (SECKILL_JVM_DIR).
find_jdk() {
  local candidates=() j v dir=${SECKILL_JVM_DIR:-/usr/lib/jvm}
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  for j in "$dir/temurin-25-jdk-amd64" $(ls -d "$dir"/*/ 2>/dev/null | sort -rV); do candidates+=("${j%/}"); done
  for j in "${candidates[@]}"; do
    [ -x "$j/bin/java" ] && [ -f "$j/release" ] || continue
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$j/release")
    if [ -n "$v" ] && [ "$v" -ge 21 ]; then echo "$j"; return 0; fi
  done
  return 1
}

use_jdk() {
  JAVA_HOME=$(find_jdk) || die "no JDK 21+ found: set JAVA_HOME or install one under /usr/lib/jvm (e.g. temurin-25-jdk)"
  export JAVA_HOME
  JAVA="$JAVA_HOME/bin/java"
  JAVA_FLAGS=(--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED)
  [ "$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$JAVA_HOME/release")" -ge 24 ] || JAVA_FLAGS=(--enable-native-access=ALL-UNNAMED)
}

# The NAMEs of bin/stack.env's PROFILE_NAME keys (stack_keys LOCAL: EDGE_PORT, ..., DEMO_LOGIN).
stack_keys() { sed -n "s/^$1_\([A-Z_]*\)=.*/\1/p" "$HOME_DIR/bin/stack.env"; }

# Sets RUN and, for every LOCAL_NAME of bin/stack.env, NAME (EDGE_PORT, KAFKA_PARTITIONS, ...): SECKILL_NAME if the
# environment has it, else the default. Which stack a command acts on is thus only the environment.
stack_settings() {
  RUN=${SECKILL_RUN_DIR:-$HOME_DIR/.run/local}
  case $RUN in /*) ;; *) RUN="$HOME_DIR/$RUN" ;; esac
  local name var def
  for name in $(stack_keys LOCAL); do
    var=SECKILL_$name def=LOCAL_$name
    printf -v "$name" '%s' "${!var:-${!def}}"
  done
}

# isolated_stack PROFILE RUN_DIR: exports the environment of an isolated stack (PROFILE TEST or BENCH of
# bin/stack.env) in RUN_DIR, for stack_settings and every process started from here on. A port comes from
# SECKILL_PROFILE_NAME, else the profile's default; another setting from SECKILL_NAME, else the profile's default.
isolated_stack() {
  local p=$1 name var def
  export SECKILL_RUN_DIR=$2
  for name in $(stack_keys "$p"); do
    def=${p}_$name
    case $name in *_PORT) var=SECKILL_${p}_$name ;; *) var=SECKILL_$name ;; esac
    export "SECKILL_$name=${!var:-${!def}}"
  done
}

port_in_use() { [ -n "$(ss -ltnH "sport = :$1" 2>/dev/null)" ]; }

pidfile() { echo "$RUN/pids/$1.pid"; }

# Prints the pid of a component this stack started, if that process is still alive.
live_pid() {
  local f p
  f=$(pidfile "$1")
  [ -f "$f" ] || return 1
  p=$(cat "$f" 2>/dev/null)
  [ -n "$p" ] && kill -0 "$p" 2>/dev/null || return 1
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
  local deadline=$((SECONDS + secs)) pid
  until "$@" >/dev/null 2>&1; do
    if pid=$(live_pid "$name"); then :; elif [ -f "$(pidfile "$name")" ]; then
      die "$name failed to start (process exited): see $log"
    fi
    [ $SECONDS -lt $deadline ] || die "$name did not become ready in ${secs}s: see $log"
    sleep 0.2
  done
}

# spawn NAME LOG CMD...: runs CMD in its own session in the background and records its pid.
spawn() {
  local name=$1 log=$2; shift 2
  mkdir -p "$RUN/pids" "$(dirname "$log")"
  setsid "$@" >>"$log" 2>&1 < /dev/null &
  echo $! > "$(pidfile "$name")"
}

# stop_pid NAME SIGNAL SECONDS: signals the recorded pid and waits for it to exit, then SIGKILLs it.
stop_pid() {
  local name=$1 sig=$2 secs=$3 pid deadline
  pid=$(live_pid "$name") || { rm -f "$(pidfile "$name")"; return 0; }
  kill "-$sig" "$pid" 2>/dev/null
  deadline=$((SECONDS + secs))
  while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    say "$name did not stop in ${secs}s; killing it"
    kill -KILL "$pid" 2>/dev/null
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  fi
  rm -f "$(pidfile "$name")"
}

http_ok() { curl -fsS -m 3 -o /dev/null "$1"; }

# Reads a secret from the environment or from a file in the run directory, creating it once.
kept_secret() {
  local var=$1 file="$RUN/$2"
  if [ -n "${!var:-}" ]; then echo "${!var}"; return; fi
  if [ ! -s "$file" ]; then
    mkdir -p "$RUN"
    (umask 077; head -c 24 /dev/urandom | base64 | tr -d '/+=\n' > "$file")
  fi
  cat "$file"
}
