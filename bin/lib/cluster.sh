# The cluster topology (bin/seckill <command> --cluster), all on loopback: a Redis Cluster of 3 masters and 3
# replicas, 3 Kafka nodes (KRaft, combined roles), one MariaDB, 2 services, 2 writers in one consumer group, 2 edges
# each balancing over both services, and a front load balancer (lb) over both edges on the public port. Sourced by
# bin/seckill after components.sh, edge.sh and lb.sh when --cluster is given: it names the nodes and replaces the
# functions components.sh marks "cluster:". Its settings are the CLUSTER_ lines of bin/stack.env (SECKILL_CLUSTER_<NAME>
# overrides one); node n of a kind listens on the kind's port + n - 1. Every peer is a list here (Redis seeds, Kafka
# bootstrap, each edge's services, the edges a restock reaches), so on several machines it is configuration only.

# NODES is the TOPOLOGY setting (stack_settings).

# ---------------------------------------------------------------- Redis Cluster
# The bus port is set, not left at port + 10000, so every port of the cluster is a setting of bin/stack.env. A node
# that misses NODE_TIMEOUT ms of pings is failed over (its replica promoted some seconds later). Without full
# coverage a shard whose master is down does not stop the other shards: only its own sales wait for the failover.
REDIS_NODE_TIMEOUT=2000
redis_conf_extra() {
  cat <<EOF
cluster-enabled yes
cluster-config-file nodes.conf
cluster-node-timeout $REDIS_NODE_TIMEOUT
cluster-port $(node_port "$1" REDIS_BUS_PORT)
cluster-require-full-coverage no
masterauth $REDIS_PASSWORD
EOF
}
redis_info() { redis_cli_at "$(node_port "$1")" cluster info 2>/dev/null | tr -d '\r'; }
redis_healthy() { redis_alive "$1" && redis_info "$1" | grep -qx 'cluster_state:ok'; }
# master or replica, as the node itself says.
redis_role() { redis_cli_at "$(node_port "$1")" role 2>/dev/null | head -1 | sed 's/^slave$/replica/'; }
redis_formed() {
  local n
  for n in $(nodes_of redis); do
    redis_info "$n" | grep -qx 'cluster_slots_assigned:16384' && return 0
  done
  return 1
}
# Creates the cluster once: a node restarted later rejoins from its nodes.conf (a master that was failed over comes
# back as a replica of the promoted one), so a second `up` never creates it again. Waits until the nodes it launched
# (every node, when it created the cluster) see the cluster ok; one that does not is named by `up`'s health check.
redis_after() {
  local n joining=("$@") addrs=()
  if ! redis_formed; then
    for n in $(nodes_of redis); do
      live_pid "$n" > /dev/null || die "the Redis cluster is not created yet and $n is not running: bin/seckill up --cluster"
      addrs+=("127.0.0.1:$(node_port "$n")")
    done
    say "creating the Redis cluster (3 masters, 3 replicas)"
    # redis-cli exits 0 on some failures: the cluster's own state decides.
    REDISCLI_AUTH="$REDIS_PASSWORD" timeout 60 redis-cli --cluster create "${addrs[@]}" --cluster-replicas 1 \
      --cluster-yes > "$RUN/redis-cluster-create.log" 2>&1 || true
    redis_formed || die "failed to create the Redis cluster: see $RUN/redis-cluster-create.log"
    joining=($(nodes_of redis))
  fi
  for n in ${joining[@]+"${joining[@]}"}; do
    wait_for "$n" 30 "$(log_of "$n")" redis_healthy "$n"
  done
}

# ---------------------------------------------------------------- Kafka, three voters
KAFKA_TOOL_NODE=kafka-tools
# Three brokers with 256 MB heaps fit beside the rest on one small machine.
KAFKA_HEAP=(-Xms256m -Xmx256m -XX:+UseSerialGC)
# id@host:port of every controller; a node's id is its number.
kafka_voters() {
  local n out=""
  for n in $(nodes_of kafka); do out+="${out:+,}$(node_index "$n")@127.0.0.1:$(node_port "$n" KAFKA_CONTROLLER_PORT)"; done
  echo "$out"
}
# A dead broker is fenced after broker.session.timeout.ms (3 s, heartbeats every 0.5 s) and its partitions get new
# leaders: well inside the service's delivery timeout, so a send in flight is not lost to the default 9 s.
kafka_props() {
  cat <<EOF
process.roles=broker,controller
node.id=$(node_index "$1")
controller.quorum.voters=$(kafka_voters)
listeners=PLAINTEXT://127.0.0.1:$(node_port "$1"),CONTROLLER://127.0.0.1:$(node_port "$1" KAFKA_CONTROLLER_PORT)
advertised.listeners=PLAINTEXT://127.0.0.1:$(node_port "$1")
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$RUN/$1/data
num.partitions=$KAFKA_PARTITIONS
default.replication.factor=3
min.insync.replicas=2
unclean.leader.election.enable=false
offsets.topic.replication.factor=3
transaction.state.log.replication.factor=3
transaction.state.log.min.isr=2
share.coordinator.state.topic.replication.factor=3
share.coordinator.state.topic.min.isr=2
broker.session.timeout.ms=3000
broker.heartbeat.interval.ms=500
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
EOF
}
# One cluster id for the three nodes, made once into the run directory.
kafka_format() {
  mkdir -p "$RUN/$KAFKA_TOOL_NODE"
  [ -s "$RUN/kafka-cluster-id" ] || kafka_java kafka.tools.StorageTool random-uuid > "$RUN/kafka-cluster-id"
  kafka_java kafka.tools.StorageTool format --config "$RUN/$1/server.properties" --cluster-id "$(cat "$RUN/kafka-cluster-id")"
}
# The dead-letter topic like the orders topic: partitioned alike, three copies, two of which must have a record
# before it is acknowledged; a replica that fell behind never leads.
kafka_topics() { echo "seckill.orders:$KAFKA_PARTITIONS seckill.orders.DLT:$KAFKA_PARTITIONS"; }
KAFKA_TOPIC_ARGS=(--replication-factor 3 --config min.insync.replicas=2 --config unclean.leader.election.enable=false)

# ---------------------------------------------------------------- services, writers, edges
# REDIS_NODES puts the service's Redisson in cluster mode (REDIS_ADDRESS, redis-1, is then ignored). A purchase
# answers 202 only once its reservation reached REDIS_REPLICA_ACKS replicas: a master that dies right after the
# script cannot take an acknowledged unit with it. SECKILL_NODE keeps the instances' order ids apart.
service_env() {
  export REDIS_NODES="$(joined "redis://127.0.0.1:%s" redis)" REDIS_REPLICA_ACKS=1 SECKILL_NODE="$(node_index "$1")"
}
# Each edge balances over both services and believes X-Forwarded-For from the lb only.
edge_env() {
  export SECKILL_EDGE_UPSTREAM="$(joined "127.0.0.1:%s" service)" SECKILL_EDGE_TRUSTED_PROXIES="$EDGE_TRUSTED_PROXIES"
}
