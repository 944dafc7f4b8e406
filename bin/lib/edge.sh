# The edge (nginx + Lua) of the local stack: render its config from openresty/ and the environment, start,
# reload, stop. Sourced by bin/seckill, not run.

EDGE_VARS='${SECKILL_EDGE_PORT} ${SECKILL_EDGE_UPSTREAM} ${SECKILL_EDGE_WORKERS} ${EDGE_RUN} ${EDGE_HOME} ${EDGE_USER_DIRECTIVE}'

edge_render() {
  export EDGE_RUN="$RUN/edge" EDGE_HOME="$HOME_DIR/openresty"
  export SECKILL_EDGE_PORT="$EDGE_PORT"
  export SECKILL_EDGE_UPSTREAM="${SECKILL_EDGE_UPSTREAM:-127.0.0.1:$SERVICE_PORT}"
  export SECKILL_EDGE_WORKERS="${SECKILL_EDGE_WORKERS:-2}"
  # Workers of a root master run as nobody, who may not read a checkout under /root: keep them root locally.
  if [ "$(id -u)" = 0 ]; then export EDGE_USER_DIRECTIVE="user root;"; else export EDGE_USER_DIRECTIVE=""; fi
  mkdir -p "$EDGE_RUN"/{conf/conf.d,logs,tmp}
  envsubst "$EDGE_VARS" < "$EDGE_HOME/nginx.conf" > "$EDGE_RUN/conf/nginx.conf"
  rm -f "$EDGE_RUN"/conf/conf.d/*.conf
  local f
  for f in "$EDGE_HOME"/conf.d/*.conf; do
    envsubst "$EDGE_VARS" < "$f" > "$EDGE_RUN/conf/conf.d/$(basename "$f")"
  done
  nginx -t -q -p "$EDGE_RUN" -c "$EDGE_RUN/conf/nginx.conf" 2> "$EDGE_RUN/logs/configtest.log" \
    || die "edge config is invalid: see $EDGE_RUN/logs/configtest.log"
}
edge_healthy() { http_ok "http://127.0.0.1:$EDGE_PORT/edge/health"; }
edge_start() {
  edge_render
  spawn edge "$RUN/edge/logs/nginx.out" nginx -p "$RUN/edge" -c "$RUN/edge/conf/nginx.conf" -g 'daemon off;'
  wait_for edge 20 "$RUN/edge/logs/error.log" edge_healthy
}
# Re-renders the config from the environment and reloads without dropping connections (shared dicts survive).
edge_reload() {
  local pid
  pid=$(live_pid edge) || die "edge is not running"
  edge_render
  kill -HUP "$pid"
}
edge_stop() { stop_pid edge QUIT 20; }
