# Start, stop and health of each component of the local stack. Sourced by bin/seckill, not run.
# Every component keeps its data, pid file and log under $RUN/<component>/ and never uses system-wide paths.

COMPONENTS=(redis db kafka service writer edge)

# A component's port is the setting named after it (redis: REDIS_PORT, moved by SECKILL_REDIS_PORT).
port_of() { local v="${1^^}_PORT"; echo "${!v:-}"; }
port_var_of() { echo "SECKILL_${1^^}_PORT"; }

log_of() {
  case $1 in
    kafka) echo "$RUN/kafka/logs/server.log" ;;
    db) echo "$RUN/db/mariadb.log" ;;
    edge) echo "$RUN/edge/logs/error.log" ;;
    *) echo "$RUN/$1/$1.log" ;;
  esac
}

# ---------------------------------------------------------------- Redis
# redis-cli takes the password from REDISCLI_AUTH, not from its command line (where ps shows it); a stopped or hung
# Redis must not hang the probe.
redis_cli() { REDISCLI_AUTH="$REDIS_PASSWORD" timeout 5 redis-cli -h 127.0.0.1 -p "$REDIS_PORT" "$@"; }
redis_healthy() { [ "$(redis_cli ping 2>/dev/null)" = PONG ]; }
# The config holds the password, so it is a file of mode 600, written at every start (a fault test deletes the
# directory). AOF with fsync every second, as production would run it: a restart keeps stock and buyers.
redis_conf() {
  cat <<EOF
bind 127.0.0.1
port $REDIS_PORT
dir "$RUN/redis"
daemonize no
save ""
appendonly yes
appendfsync everysec
protected-mode yes
requirepass $REDIS_PASSWORD
EOF
}
redis_start() {
  mkdir -p "$RUN/redis"
  (umask 077; redis_conf > "$RUN/redis/redis.conf")
  spawn redis "$RUN/redis/redis.log" redis-server "$RUN/redis/redis.conf"
  wait_for redis 20 "$RUN/redis/redis.log" redis_healthy
}
redis_stop() { stop_pid redis TERM 20; }

# ---------------------------------------------------------------- MariaDB (the local MySQL)
db_cnf() {
  cat <<EOF
[mariadbd]
user=root
datadir=$RUN/db/data
socket=$RUN/db/mariadb.sock
pid-file=$RUN/db/mariadb.pid
log-error=$RUN/db/mariadb.log
port=$DB_PORT
bind-address=127.0.0.1
skip-name-resolve
character-set-server=utf8mb4
collation-server=utf8mb4_unicode_ci
innodb_buffer_pool_size=128M
# Dev/CI speed: flush the redo log once a second instead of at every commit. Production uses 1.
innodb_flush_log_at_trx_commit=2
max_connections=300
EOF
}
db_cli() { mariadb --no-defaults -S "$RUN/db/mariadb.sock" -uroot "$@"; }
db_healthy() { mariadb-admin --no-defaults -S "$RUN/db/mariadb.sock" -uroot ping; }
db_start() {
  mkdir -p "$RUN/db"
  db_cnf > "$RUN/db/my.cnf"
  if [ ! -d "$RUN/db/data/mysql" ]; then
    mariadb-install-db --defaults-file="$RUN/db/my.cnf" --skip-name-resolve --skip-test-db \
      > "$RUN/db/install.log" 2>&1 || die "db failed to initialise: see $RUN/db/install.log"
  fi
  spawn db "$RUN/db/mariadb.out" mariadbd --defaults-file="$RUN/db/my.cnf"
  wait_for db 60 "$RUN/db/mariadb.log" db_healthy
  # On stdin, not -e: the password must not be on a command line. ALTER USER sets the run directory's password on
  # a data directory made before it (or with another one).
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
kafka_fetch() {
  [ -f "$(kafka_lib)/.complete" ] && return 0
  say "fetching the Kafka runtime jars through Maven"
  mkdir -p "$CACHE"
  rm -rf "$(kafka_lib)"
  mvn -q -B -f "$HOME_DIR/bin/kafka/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$(kafka_lib)" > "$CACHE/kafka-fetch.log" 2>&1 \
    || die "failed to fetch the Kafka jars: see $CACHE/kafka-fetch.log"
  touch "$(kafka_lib)/.complete"
}
# The JVM of the broker and of its tools alike (logging into the run directory), as the array KAFKA_JVM.
kafka_jvm() {
  KAFKA_JVM=("$JAVA" "${JAVA_FLAGS[@]}" -Dlog4j2.configurationFile="$HOME_DIR/bin/kafka/log4j2.properties"
    -Dkafka.logs.dir="$RUN/kafka/logs" -cp "$(kafka_lib)/*")
}
kafka_java() { kafka_jvm; "${KAFKA_JVM[@]}" "$@"; }
kafka_props() {
  cat <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$RUN/kafka/data
num.partitions=$KAFKA_PARTITIONS
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
EOF
}
kafka_healthy() { grep -q "Kafka Server started" "$RUN/kafka/logs/server.log" 2>/dev/null && port_in_use "$KAFKA_PORT"; }
kafka_start() {
  kafka_fetch
  mkdir -p "$RUN/kafka/logs"
  kafka_props > "$RUN/kafka/server.properties"
  if [ ! -f "$RUN/kafka/data/meta.properties" ]; then
    kafka_java kafka.tools.StorageTool format --config "$RUN/kafka/server.properties" --standalone \
      --cluster-id "$(kafka_java kafka.tools.StorageTool random-uuid)" > "$RUN/kafka/format.log" 2>&1 \
      || die "kafka failed to format its storage: see $RUN/kafka/format.log"
  fi
  # A fresh start must not be taken for ready on the strength of an earlier run's log line.
  [ -f "$RUN/kafka/logs/server.log" ] && mv "$RUN/kafka/logs/server.log" "$RUN/kafka/logs/server.log.prev"
  kafka_jvm
  spawn kafka "$RUN/kafka/kafka.out" "${KAFKA_JVM[@]}" -Xms512m -Xmx512m kafka.Kafka "$RUN/kafka/server.properties"
  wait_for kafka 90 "$RUN/kafka/logs/server.log" kafka_healthy
  local t
  for t in "seckill.orders:$KAFKA_PARTITIONS" "seckill.orders.DLT:1"; do
    kafka_java org.apache.kafka.tools.TopicCommand --bootstrap-server "127.0.0.1:$KAFKA_PORT" --create \
      --if-not-exists --topic "${t%%:*}" --partitions "${t##*:}" --replication-factor 1 >> "$RUN/kafka/topics.log" 2>&1 \
      || die "kafka failed to create topic ${t%%:*}: see $RUN/kafka/topics.log"
  done
}
kafka_stop() { stop_pid kafka TERM 30; }

# ---------------------------------------------------------------- the two Java services
# Their settings and secrets go in through the environment (exported in the subshell that spawns them), never on a
# command line. -Dseckill.run marks the JVM as this stack's (component_marks).
java_env() {
  export KAFKA_BOOTSTRAP="127.0.0.1:$KAFKA_PORT" DB_URL="jdbc:mariadb://127.0.0.1:$DB_PORT/seckill" DB_USER=seckill \
    DB_PASSWORD="$DB_PASSWORD"
}
service_jar() { echo "$HOME_DIR/helidon-app/target/helidon-app.jar"; }
writer_jar() { echo "$HOME_DIR/kafka-consumer/target/kafka-consumer.jar"; }
# The detailed health is on the service's internal listener (the admin port) only.
service_healthy() { http_ok "http://127.0.0.1:$ADMIN_PORT/observe/health"; }
service_start() {
  [ -f "$(service_jar)" ] || die "service jar missing: run bin/seckill build"
  mkdir -p "$RUN/service"
  (
    java_env
    export SERVER_PORT="$SERVICE_PORT" ADMIN_PORT="$ADMIN_PORT" REDIS_ADDRESS="redis://127.0.0.1:$REDIS_PORT" \
      REDIS_PASSWORD="$REDIS_PASSWORD" SECKILL_ADMIN_TOKEN="$ADMIN_TOKEN" SECKILL_TOKEN_SECRET="$TOKEN_SECRET" \
      SECKILL_DEMO_LOGIN="$DEMO_LOGIN" SECKILL_EDGE_ADMIN="http://127.0.0.1:$EDGE_PORT"
    spawn service "$RUN/service/service.log" "$JAVA" "${JAVA_FLAGS[@]}" -Dseckill.run="$RUN" -Xms128m -Xmx384m \
      -jar "$(service_jar)"
  )
  wait_for service 60 "$RUN/service/service.log" service_healthy
}
service_stop() { stop_pid service TERM 20; }
writer_healthy() { http_ok "http://127.0.0.1:$WRITER_PORT/observe/health"; }
writer_start() {
  [ -f "$(writer_jar)" ] || die "writer jar missing: run bin/seckill build"
  mkdir -p "$RUN/writer"
  (
    java_env
    export SERVER_PORT="$WRITER_PORT"
    spawn writer "$RUN/writer/writer.log" "$JAVA" "${JAVA_FLAGS[@]}" -Dseckill.run="$RUN" -Xms64m -Xmx256m \
      -jar "$(writer_jar)"
  )
  wait_for writer 60 "$RUN/writer/writer.log" writer_healthy
}
writer_stop() { stop_pid writer TERM 20; }

# ---------------------------------------------------------------- the whole stack
component_healthy() { "${1}_healthy" > /dev/null 2>&1; }

start_component() {
  local c=$1
  if live_pid "$c" >/dev/null; then return 0; fi
  claim_port "$c" "$(port_of "$c")" "$(port_var_of "$c")"
  case $c in
    kafka) claim_port kafka-controller "$KAFKA_CONTROLLER_PORT" SECKILL_KAFKA_CONTROLLER_PORT ;;
    service) claim_port "the service's admin listener" "$ADMIN_PORT" SECKILL_ADMIN_PORT ;;
  esac
  say "starting $c on 127.0.0.1:$(port_of "$c")"
  "${c}_start"
}

stop_component() { "${1}_stop"; }
