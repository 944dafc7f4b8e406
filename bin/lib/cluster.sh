# The cluster topology (bin/seckill <command> --cluster), all on loopback: a Redis Cluster of 3 masters and 3
# replicas, 3 Kafka nodes (KRaft, combined roles), one MariaDB, 2 services, 2 writers in one consumer group, 2 edges
# each balancing over both services, and a front load balancer (lb) over both edges on the public port. Sourced by
# bin/seckill after components.sh, edge.sh and lb.sh when --cluster is given: it sets the variables components.sh and
# edge.sh mark "cluster:" and adds the functions only the cluster has; it redefines none. Its settings are the
# CLUSTER_ lines of bin/stack.env (SECKILL_CLUSTER_<NAME> overrides one); node n of a kind listens on the kind's
# port + n - 1. Every peer is a list (Redis seeds, Kafka bootstrap, each edge's services, the edges a restock
# reaches), so on several machines it is configuration only.

# NODES is the TOPOLOGY setting (stack_settings).

# This file sets variables that components.sh and edge.sh read, which shellcheck cannot see from here.
# shellcheck disable=SC2034

# ---------------------------------------------------------------- Redis Cluster
# Cluster mode (redis_conf, redis_healthy, the services' seeds). A node that misses REDIS_NODE_TIMEOUT_MS of pings
# (bin/stack.env) is failed over (its replica promoted some seconds later).
REDIS_CLUSTER=true
# master or replica, as the node itself says.
redis_role() { redis_cli_at "$1" role 2>/dev/null | head -1 | sed 's/^slave$/replica/'; }
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
# In containers each node runs this for itself: redis-1 creates the cluster once all six answer, the others wait.
redis_after() {
  local n joining=("$@") addrs=()
  if in_container && [ "$1" != redis-1 ]; then
    await redis_formed 120 || die "the Redis cluster was not created in 120 s (redis-1 creates it: see its log)"
  fi
  if ! redis_formed; then
    for n in $(nodes_of redis); do
      if in_container; then
        await "redis_alive $n" 120 || die "the Redis cluster is not created yet and $n does not answer"
      else
        live_pid "$n" > /dev/null || die "the Redis cluster is not created yet and $n is not running: bin/seckill up --cluster"
      fi
      addrs+=("$(node_addr "$n"):$(node_port "$n")")
    done
    say "creating the Redis cluster (3 masters, 3 replicas)"
    # redis-cli exits 0 on some failures: the cluster's own state decides.
    REDISCLI_AUTH="$REDIS_PASSWORD" timeout 60 redis-cli --cluster create "${addrs[@]}" --cluster-replicas 1 \
      --cluster-yes > "$RUN/redis-cluster-create.log" 2>&1 || true
    redis_formed || die "failed to create the Redis cluster: see $RUN/redis-cluster-create.log"
    # Natively every node waits here; a container waits for its own node only.
    in_container || mapfile -t joining < <(nodes_of redis)
  fi
  for n in ${joining[@]+"${joining[@]}"}; do
    wait_for "$n" 30 "$(log_of "$n")" redis_healthy "$n"
  done
}

# ---------------------------------------------------------------- Kafka, three voters
KAFKA_TOOL_NODE=kafka-tools
# Three brokers with 256 MB heaps fit beside the rest on one small machine.
KAFKA_HEAP=(-Xms256m -Xmx256m -XX:+UseSerialGC)
KAFKA_QUORUM=voters
# The writers' group session and retry backoff are the cluster's settings (bin/stack.env).
WRITER_CLUSTER_TIMEOUTS=true
# Every topic (the dead-letter topic too, partitioned like the orders topic) in three copies, two of which must have
# a record before it is acknowledged; a replica that fell behind never leads.
KAFKA_COPIES=3
KAFKA_IN_SYNC=2
KAFKA_DLT_PARTITIONS=""
KAFKA_TOPIC_CONFIG=(--config "min.insync.replicas=$KAFKA_IN_SYNC" --config unclean.leader.election.enable=false)

# ---------------------------------------------------------------- edges
# Each edge balances over both services and believes X-Forwarded-For from the lb only.
EDGE_ALL_SERVICES=true
