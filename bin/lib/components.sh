# Start, stop and health of each node of a stack, by the node's name. Sourced by bin/seckill, not run.
# Every node keeps its data, pid file and log under $RUN/<node>/ and never uses system-wide paths (the single stack's
# nodes are named after their kind: $RUN/redis, $RUN/service, ...). Each kind has <kind>_launch NODE (start the
# process), <kind>_await NODE (wait until it is ready), <kind>_healthy NODE and <kind>_stop NODE, and may have
# <kind>_after NODE... (once the launched nodes of the kind are ready: topics, users). One definition serves both
# topologies: bin/lib/cluster.sh sets the variables marked "cluster:" below for the cluster (--cluster), and adds
# the functions only the cluster has.

# The single stack's nodes in start order (cluster.sh sets its own).
COMPONENTS=(redis db kafka service writer edge)
NODES=("${COMPONENTS[@]}")

is_node() { local n; for n in "${NODES[@]}"; do [ "$n" = "$1" ] && return 0; done; return 1; }
# nodes_of KIND: the stack's nodes of one kind.
nodes_of() { local n; for n in "${NODES[@]}"; do [ "$(kind_of "$n")" = "$1" ] && echo "$n"; done; return 0; }
# joined FORMAT KIND [SETTING]: FORMAT (with %s for the node's host:port of SETTING) for every node of KIND,
# comma-separated: the peer lists (joined "%s" kafka is the Kafka bootstrap list).
joined() {
  local n out=""
  # FORMAT is the caller's printf format, by design.
  # shellcheck disable=SC2059
  for n in $(nodes_of "$2"); do out+="${out:+,}$(printf "$1" "$(node_host "$n"):$(node_port "$n" "${3:-}")")"; done
  echo "$out"
}

# The settings that hold a kind's ports, its main one first (Redis has a bus port in the cluster only).
port_settings_of() {
  case $(kind_of "$1") in
    redis) echo REDIS_PORT ${REDIS_BUS_PORT:+REDIS_BUS_PORT} ;;
    kafka) echo KAFKA_PORT KAFKA_CONTROLLER_PORT ;;
    service) echo SERVICE_PORT ADMIN_PORT ;;
    *) local k; k=$(kind_of "$1"); echo "${k^^}_PORT" ;;
  esac
}
# The node's ports, comma-separated (the first is its main one).
node_ports() {
  local s out=""
  for s in $(port_settings_of "$1"); do out+="${out:+,}$(node_port "$1" "$s")"; done
  echo "$out"
}

log_of() {
  case $(kind_of "$1") in
    kafka) echo "$RUN/$1/logs/server.log" ;;
    db) echo "$RUN/db/mariadb.log" ;;
    edge | lb) echo "$RUN/$1/logs/error.log" ;;
    *) echo "$RUN/$1/$(kind_of "$1").log" ;;
  esac
}

# ---------------------------------------------------------------- Redis
# redis-cli takes the password from REDISCLI_AUTH, not from its command line (where ps shows it); a stopped or hung
# Redis must not hang the probe.
# redis_cli_at NODE ARG...: redis-cli against one node.
redis_cli_at() {
  local node=$1; shift
  REDISCLI_AUTH="$REDIS_PASSWORD" timeout 5 redis-cli -h "$(node_host "$node")" -p "$(node_port "$node")" "$@"
}
redis_alive() { [ "$(redis_cli_at "$1" ping 2>/dev/null)" = PONG ]; }
redis_info() { redis_cli_at "$1" cluster info 2>/dev/null | tr -d '\r'; }
# cluster: true. The nodes run in cluster mode (bin/stack.env's REDIS_NODE_TIMEOUT_MS), a node is healthy only once the
# cluster is ok in its view, and the services are given every node as a seed.
REDIS_CLUSTER=false
redis_healthy() { redis_alive "$1" && { [ "$REDIS_CLUSTER" = false ] || redis_info "$1" | grep -qx 'cluster_state:ok'; }; }
# The config holds the password, so it is a file of mode 600, written at every start (a fault test deletes the
# directory). AOF with fsync every second, as production would run it: a restart keeps stock and buyers.
# In a cluster the bus port is set, not left at port + 10000, so every port of the cluster is a setting of
# bin/stack.env; without full coverage a shard whose master is down does not stop the other shards (only its own
# sales wait for the failover); masterauth lets a replica sync from its master.
redis_conf() {
  cat <<EOF
bind $(bind_address)
port $(node_port "$1")
dir "$RUN/$1"
daemonize no
save ""
appendonly yes
appendfsync everysec
protected-mode yes
requirepass $REDIS_PASSWORD
EOF
  [ "$REDIS_CLUSTER" = true ] || return 0
  cat <<EOF
cluster-enabled yes
cluster-config-file nodes.conf
cluster-node-timeout $REDIS_NODE_TIMEOUT_MS
cluster-port $(node_port "$1" REDIS_BUS_PORT)
cluster-require-full-coverage no
masterauth $REDIS_PASSWORD
EOF
  if in_container; then echo "cluster-announce-hostname $(node_host "$1")"; fi
}
# A container's address changes when it is made anew (docker compose down, then up), and a Redis Cluster node finds
# its peers at the addresses its nodes.conf remembers. Each peer's line also holds its name (announced above), so
# before a node starts, every peer's line gets the address its name has now (all nodes start together; a peer that
# is not running yet is waited for).
redis_readdress() {
  local conf="$RUN/$1/nodes.conf" peer addr
  [ -f "$conf" ] || return 0
  while read -r peer; do
    await "node_addr $peer" 120 || die "$1: its cluster peer $peer has no address after 120 s"
    addr=$(node_addr "$peer")
    sed -i "s/^\([0-9a-f]* \)[^: ]*\(:[0-9]*@[0-9]*,${peer}[, ]\)/\1$addr\2/" "$conf"
  done < <(sed -n 's/^[0-9a-f]* [^ ]*@[0-9]*,\([^ ,]\+\)[, ].*/\1/p' "$conf")
}
redis_launch() {
  mkdir -p "$RUN/$1"
  (umask 077; redis_conf "$1" > "$RUN/$1/redis.conf")
  if [ "$REDIS_CLUSTER" = true ] && in_container; then redis_readdress "$1"; fi
  spawn "$1" "$(log_of "$1")" redis-server "$RUN/$1/redis.conf"
}
redis_await() { wait_for "$1" 20 "$(log_of "$1")" redis_alive "$1"; }
redis_stop() { stop_pid "$1" TERM 20; }

# ---------------------------------------------------------------- MariaDB (the local MySQL; one node in every topology)
db_cnf() {
  cat <<EOF
[mariadbd]
user=$(id -un)
datadir=$RUN/db/data
socket=$RUN/db/mariadb.sock
pid-file=$RUN/db/mariadb.pid
log-error=$RUN/db/mariadb.log
port=$DB_PORT
bind-address=$(bind_address)
skip-name-resolve
character-set-server=utf8mb4
collation-server=utf8mb4_unicode_ci
innodb_buffer_pool_size=128M
# Dev/CI speed: flush the redo log once a second instead of at every commit. Production uses 1.
innodb_flush_log_at_trx_commit=2
max_connections=300
EOF
}
# trace.sh passes arguments; db_after only stdin.
# shellcheck disable=SC2120
# The database's administrator is the system user that made its data directory (root natively; in a container the
# image's user), over the socket only.
db_cli() { mariadb --no-defaults -S "$RUN/db/mariadb.sock" -u"$(id -un)" "$@"; }
db_healthy() { mariadb-admin --no-defaults -S "$RUN/db/mariadb.sock" -u"$(id -un)" ping; }
db_launch() {
  mkdir -p "$RUN/db"
  db_cnf > "$RUN/db/my.cnf"
  if [ ! -d "$RUN/db/data/mysql" ]; then
    mariadb-install-db --defaults-file="$RUN/db/my.cnf" --skip-name-resolve --skip-test-db \
      > "$RUN/db/install.log" 2>&1 || die "db failed to initialise: see $RUN/db/install.log"
  fi
  spawn db "$RUN/db/mariadb.out" mariadbd --defaults-file="$RUN/db/my.cnf"
}
db_await() { wait_for db 60 "$RUN/db/mariadb.log" db_healthy; }
# On stdin, not -e: the password must not be on a command line. ALTER USER sets the run directory's password on a
# data directory made before it (or with another one).
db_after() {
  [ $# -gt 0 ] || return 0
  # In a container the services connect from other containers of the compose network.
  if in_container; then
    db_cli <<SQL || die "db failed to create the seckill user: see $RUN/db/mariadb.log"
CREATE USER IF NOT EXISTS 'seckill'@'%' IDENTIFIED BY '$DB_PASSWORD';
ALTER USER 'seckill'@'%' IDENTIFIED BY '$DB_PASSWORD';
GRANT ALL ON seckill.* TO 'seckill'@'%';
SQL
  fi
  db_cli <<SQL || die "db failed to create the seckill database and user: see $RUN/db/mariadb.log"
CREATE DATABASE IF NOT EXISTS seckill CHARACTER SET utf8mb4;
CREATE USER IF NOT EXISTS 'seckill'@'127.0.0.1' IDENTIFIED BY '$DB_PASSWORD';
CREATE USER IF NOT EXISTS 'seckill'@'localhost' IDENTIFIED BY '$DB_PASSWORD';
ALTER USER 'seckill'@'127.0.0.1' IDENTIFIED BY '$DB_PASSWORD';
ALTER USER 'seckill'@'localhost' IDENTIFIED BY '$DB_PASSWORD';
GRANT ALL ON seckill.* TO 'seckill'@'127.0.0.1';
GRANT ALL ON seckill.* TO 'seckill'@'localhost';
SQL
}
db_stop() { stop_pid db TERM 60; }

# ---------------------------------------------------------------- Kafka (KRaft, from Maven jars)
kafka_lib() { echo "$CACHE/kafka-lib"; }
# The marker holds the checksum of bin/kafka/pom.xml, so a new Kafka version there fetches its jars anew.
kafka_fetch() {
  local want
  want=$(sha1sum "$HOME_DIR/bin/kafka/pom.xml" | cut -d' ' -f1)
  [ "$(cat "$(kafka_lib)/.complete" 2>/dev/null)" = "$want" ] && return 0
  say "fetching the Kafka runtime jars through Maven"
  mkdir -p "$CACHE"
  rm -rf "$(kafka_lib)"
  mvn_run -q -B -f "$HOME_DIR/bin/kafka/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$(kafka_lib)" > "$CACHE/kafka-fetch.log" 2>&1 \
    || die "failed to fetch the Kafka jars: see $CACHE/kafka-fetch.log"
  echo "$want" > "$(kafka_lib)/.complete"
}
# The JVM of a broker and of the tools alike (logging into the node's directory), as the array KAFKA_JVM.
kafka_jvm() {
  KAFKA_JVM=("$JAVA" "${JAVA_FLAGS[@]}" -Dlog4j2.configurationFile="$HOME_DIR/bin/kafka/log4j2.properties"
    -Dkafka.logs.dir="$RUN/${1:-kafka}/logs" -cp "$(kafka_lib)/*")
}
kafka_java() { kafka_jvm "$KAFKA_TOOL_NODE"; "${KAFKA_JVM[@]}" "$@"; }
# The topology's Kafka. cluster: three voters with smaller heaps, every topic in three copies of which two must have
# a record before it is acknowledged, the dead-letter topic partitioned like the orders topic.
#   KAFKA_TOOL_NODE       the node whose log directory the tools write to
#   KAFKA_HEAP            each broker's heap
#   KAFKA_QUORUM          standalone: one node bootstraps a quorum of its own (formatted --standalone) and advertises
#                         its controller for it; voters: the static voter list of every node, one cluster id for all
#   KAFKA_COPIES          replication factor of the internal topics and ours
#   KAFKA_IN_SYNC         replicas that must have a record (min.insync.replicas, and the internal topics' min.isr)
#   KAFKA_DLT_PARTITIONS  the dead-letter topic's partitions (empty: as many as the orders topic)
#   KAFKA_TOPIC_CONFIG    --config arguments our topics are created with
KAFKA_TOOL_NODE=kafka
KAFKA_HEAP=(-Xms512m -Xmx512m)
KAFKA_QUORUM=standalone
KAFKA_COPIES=1
KAFKA_IN_SYNC=1
KAFKA_DLT_PARTITIONS=1
KAFKA_TOPIC_CONFIG=()
kafka_bootstrap() { joined "%s" kafka; }
# id@host:port of every controller; a node's id is its number.
kafka_voters() {
  local n out=""
  for n in $(nodes_of kafka); do out+="${out:+,}$(node_index "$n")@$(node_host "$n"):$(node_port "$n" KAFKA_CONTROLLER_PORT)"; done
  echo "$out"
}
# A node's server.properties; a line of the other quorum's expands to nothing and is dropped. Voters replicate, and a
# dead one is fenced after broker.session.timeout.ms (bin/stack.env's KAFKA_BROKER_SESSION_MS, heartbeats every
# 0.5 s) and its partitions get new leaders: well inside the service's delivery timeout, so a send in flight is not
# lost to the default 9 s.
kafka_props() {
  local port ctl standalone="" voters="" host bind
  port=$(node_port "$1") ctl=$(node_port "$1" KAFKA_CONTROLLER_PORT) host=$(node_host "$1") bind=$(bind_address)
  if [ "$KAFKA_QUORUM" = voters ]; then voters=1; else standalone=1; fi
  sed '/^$/d' <<EOF
process.roles=broker,controller
node.id=$(node_index "$1")
${standalone:+controller.quorum.bootstrap.servers=$host:$ctl}
${voters:+controller.quorum.voters=$(kafka_voters)}
listeners=PLAINTEXT://$bind:$port,CONTROLLER://$bind:$ctl
advertised.listeners=PLAINTEXT://$host:$port${standalone:+,CONTROLLER://$host:$ctl}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$RUN/$1/data
num.partitions=$KAFKA_PARTITIONS
${voters:+default.replication.factor=$KAFKA_COPIES}
${voters:+min.insync.replicas=$KAFKA_IN_SYNC}
${voters:+unclean.leader.election.enable=false}
offsets.topic.replication.factor=$KAFKA_COPIES
transaction.state.log.replication.factor=$KAFKA_COPIES
transaction.state.log.min.isr=$KAFKA_IN_SYNC
share.coordinator.state.topic.replication.factor=$KAFKA_COPIES
share.coordinator.state.topic.min.isr=$KAFKA_IN_SYNC
${voters:+broker.session.timeout.ms=$KAFKA_BROKER_SESSION_MS}
${voters:+broker.heartbeat.interval.ms=500}
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
EOF
}
# A standalone node makes a cluster id of its own; voters share one, made once into the run directory.
kafka_format() {
  if [ "$KAFKA_QUORUM" = standalone ]; then
    kafka_java kafka.tools.StorageTool format --config "$RUN/$1/server.properties" --standalone \
      --cluster-id "$(kafka_java kafka.tools.StorageTool random-uuid)"
    return
  fi
  mkdir -p "$RUN/$KAFKA_TOOL_NODE"
  # Containers keep no file in common: compose gives the three the same id (SECKILL_KAFKA_CLUSTER_ID).
  [ -z "${SECKILL_KAFKA_CLUSTER_ID:-}" ] || echo "$SECKILL_KAFKA_CLUSTER_ID" > "$RUN/kafka-cluster-id"
  [ -s "$RUN/kafka-cluster-id" ] || kafka_java kafka.tools.StorageTool random-uuid > "$RUN/kafka-cluster-id"
  kafka_java kafka.tools.StorageTool format --config "$RUN/$1/server.properties" --cluster-id "$(cat "$RUN/kafka-cluster-id")"
}
# The topics as name:partitions. seckill.order-events (the writer's outbox relay, keyed by order) is partitioned like
# the orders topic.
kafka_topics() {
  echo "seckill.orders:$KAFKA_PARTITIONS seckill.orders.DLT:${KAFKA_DLT_PARTITIONS:-$KAFKA_PARTITIONS}" \
    "seckill.order-events:$KAFKA_PARTITIONS"
}
kafka_healthy() { grep -q "Kafka Server started" "$(log_of "$1")" 2>/dev/null && port_in_use "$(node_port "$1")"; }
kafka_launch() {
  kafka_fetch
  mkdir -p "$RUN/$1/logs"
  kafka_props "$1" > "$RUN/$1/server.properties"
  if [ ! -f "$RUN/$1/data/meta.properties" ]; then
    kafka_format "$1" > "$RUN/$1/format.log" 2>&1 || die "$1 failed to format its storage: see $RUN/$1/format.log"
  fi
  # A fresh start must not be taken for ready on the strength of an earlier run's log line.
  [ -f "$(log_of "$1")" ] && mv "$(log_of "$1")" "$(log_of "$1").prev"
  kafka_jvm "$1"
  spawn "$1" "$RUN/$1/kafka.out" "${KAFKA_JVM[@]}" "${KAFKA_HEAP[@]}" kafka.Kafka "$RUN/$1/server.properties"
}
kafka_await() { wait_for "$1" 90 "$(log_of "$1")" kafka_healthy "$1"; }
# Once a broker was started: the topics, unless they exist.
kafka_after() {
  [ $# -gt 0 ] || return 0
  # In containers each node runs this for itself: the first creates the topics (the others would only repeat it).
  if in_container && [ "$(node_index "$1")" != 1 ]; then return 0; fi
  local t
  for t in $(kafka_topics); do
    kafka_java org.apache.kafka.tools.TopicCommand --bootstrap-server "$(kafka_bootstrap)" --create --if-not-exists \
      --topic "${t%%:*}" --partitions "${t##*:}" --replication-factor "$KAFKA_COPIES" \
      ${KAFKA_TOPIC_CONFIG[@]+"${KAFKA_TOPIC_CONFIG[@]}"} >> "$RUN/$KAFKA_TOOL_NODE/topics.log" 2>&1 \
      || die "kafka failed to create topic ${t%%:*}: see $RUN/$KAFKA_TOOL_NODE/topics.log"
  done
}
kafka_stop() { stop_pid "$1" TERM 30; }

# ---------------------------------------------------------------- the two Java services
# Their settings and secrets go in through the environment (exported in the subshell that spawns them), never on a
# command line. -Dseckill.run marks the JVM as this node of this stack (component_marks); it is no config key (the
# services read system properties as configuration, so seckill.node would be one).
# java_env NODE: what both read. Call it in that subshell: SERVER_PORT, ADMIN_PORT are set for the node there.
java_env() {
  KAFKA_BOOTSTRAP=$(kafka_bootstrap) SERVER_PORT=$(node_port "$1") DB_URL="jdbc:mariadb://$(node_host db):$DB_PORT/seckill"
  export KAFKA_BOOTSTRAP DB_URL DB_USER=seckill DB_PASSWORD="$DB_PASSWORD" SERVER_PORT
  # Natively the JVMs' own default, loopback.
  if in_container; then export SERVER_HOST=0.0.0.0 ADMIN_HOST=0.0.0.0; fi
}
# java_spawn NODE JAR HEAP...: the JVM of a service or writer node.
java_spawn() {
  local node=$1 jar=$2; shift 2
  spawn "$node" "$(log_of "$node")" "$JAVA" "${JAVA_FLAGS[@]}" -Dseckill.run="$RUN/$node" "$@" \
    -jar "$jar"
}
# The jars the service and writer nodes run: the checkout's, or (JAR_COPIES=true, bench_use_snapshots) the copies
# bin/lib/bench.sh took into the run directory (bench_snapshot_jar NAME MODULE: $RUN/jars/NAME/MODULE.jar).
JAR_COPIES=false
# node_jar NAME MODULE
node_jar() { if [ "$JAR_COPIES" = true ]; then echo "$RUN/jars/$1/$2.jar"; else echo "$HOME_DIR/$2/target/$2.jar"; fi; }
service_jar() { node_jar service helidon-app; }
writer_jar() { node_jar writer kafka-consumer; }
# service_env NODE: java_env and the service's own. A unit that comes back (compensation, reconcile) clears the
# sold-out flag on every edge (SECKILL_EDGE_ADMIN). The stack's token secret is also its HS256 secret, so the tokens
# of the demo sign-in, bin/seckill tokens, the tests and the bench (HS256 JWTs signed with it) verify; the other
# SECKILL_JWT_* settings (a shop's JWKS URL, issuer, audience, ...) reach the service from the caller's environment.
service_env() {
  java_env "$1"
  ADMIN_PORT=$(node_port "$1" ADMIN_PORT) SECKILL_EDGE_ADMIN=$(edge_admin_urls) REDIS_ADDRESS="redis://$(node_host redis):$REDIS_PORT"
  export ADMIN_PORT SECKILL_EDGE_ADMIN REDIS_ADDRESS REDIS_PASSWORD="$REDIS_PASSWORD" \
    SECKILL_ADMIN_TOKEN="$ADMIN_TOKEN" SECKILL_TOKEN_SECRET="$TOKEN_SECRET" SECKILL_DEMO_LOGIN="$DEMO_LOGIN" \
    SECKILL_LINE_SECRET="$LINE_SECRET" SECKILL_JWT_HS256_SECRET="$TOKEN_SECRET"
  # In a Redis cluster the seeds put Redisson in cluster mode (REDIS_ADDRESS is then ignored), and a purchase answers
  # 202 only once its reservation reached a replica: a master that dies right after the script cannot take an
  # acknowledged unit with it.
  if [ "$REDIS_CLUSTER" = true ]; then
    REDIS_NODES=$(joined "redis://%s" redis)
    export REDIS_NODES REDIS_REPLICA_ACKS=1
  fi
  # A numbered node (service-1, service-2) takes its number as its order-id node, so the instances' ids stay apart;
  # the single stack's service draws one from a Redis counter.
  case $1 in *-[0-9]*) SECKILL_NODE=$(node_index "$1"); export SECKILL_NODE ;; esac
}
# The detailed health is on the service's internal listener (the admin port) only.
service_healthy() { http_ok "http://127.0.0.1:$(node_port "$1" ADMIN_PORT)/observe/health"; }
service_launch() {
  [ -f "$(service_jar)" ] || die "service jar missing: run bin/seckill build"
  mkdir -p "$RUN/$1"
  ( service_env "$1"; java_spawn "$1" "$(service_jar)" -Xms128m -Xmx384m )
}
service_await() { wait_for "$1" 120 "$(log_of "$1")" service_healthy "$1"; }
service_stop() { stop_pid "$1" TERM 20; }
writer_healthy() { http_ok "http://127.0.0.1:$(node_port "$1")/observe/health"; }
# cluster: true. The writers' group session and longest retry backoff are then the cluster's settings
# (bin/stack.env's WRITER_SESSION_TIMEOUT_MS and WRITER_BACKOFF_MAX_MS), not the writer's own defaults.
WRITER_CLUSTER_TIMEOUTS=false
writer_launch() {
  [ -f "$(writer_jar)" ] || die "writer jar missing: run bin/seckill build"
  mkdir -p "$RUN/$1"
  (
    java_env "$1"
    if [ "$WRITER_CLUSTER_TIMEOUTS" = true ]; then
      export KAFKA_SESSION_TIMEOUT_MS=$WRITER_SESSION_TIMEOUT_MS WRITER_BACKOFF_MAX_MS=$WRITER_BACKOFF_MAX_MS
    fi
    java_spawn "$1" "$(writer_jar)" -Xms64m -Xmx256m
  )
}
writer_await() { wait_for "$1" 120 "$(log_of "$1")" writer_healthy "$1"; }
writer_stop() { stop_pid "$1" TERM 20; }

# ---------------------------------------------------------------- the whole stack
component_healthy() { "$(kind_of "$1")_healthy" "$1" > /dev/null 2>&1; }

# Refuses to start a node on a port somebody else holds, naming the variable that moves it.
claim_ports() {
  local s port what
  for s in $(port_settings_of "$1"); do
    port=$(node_port "$1" "$s") || continue
    case $s in
      KAFKA_CONTROLLER_PORT) what="$1-controller" ;;
      REDIS_BUS_PORT) what="$1's cluster bus" ;;
      ADMIN_PORT) what="$1's admin listener"; [ "$1" = service ] && what="the service's admin listener" ;;
      *) what=$1 ;;
    esac
    claim_port "$what" "$port" "SECKILL_$SCOPE$s"
  done
}

# start_nodes NODE...: starts those that are not running (a node that crashed, even one still a zombie, is started
# again), kind by kind in the order given. Every node of a kind is launched before any is awaited (three Kafka voters
# only become ready together); then the kind's after-step runs with the nodes it launched.
start_nodes() {
  local kinds=() k n launched
  for n in "$@"; do
    k=$(kind_of "$n")
    [[ " ${kinds[*]} " == *" $k "* ]] || kinds+=("$k")
  done
  for k in "${kinds[@]}"; do
    launched=()
    for n in "$@"; do
      [ "$(kind_of "$n")" = "$k" ] || continue
      live_pid "$n" > /dev/null && continue
      claim_ports "$n"
      say "starting $n on 127.0.0.1:$(node_port "$n")"
      "${k}_launch" "$n"
      launched+=("$n")
    done
    for n in "${launched[@]}"; do "${k}_await" "$n"; done
    if declare -F "${k}_after" > /dev/null; then "${k}_after" "${launched[@]}"; fi
  done
}

start_component() { start_nodes "$1"; }

stop_component() { "$(kind_of "$1")_stop" "$1"; }
