# The cluster's front load balancer (nginx, no Lua, in front of every edge): render its config from openresty/lb/
# and the environment, start, stop. Sourced by bin/seckill after edge.sh (it renders the same way). Its knobs:
#   SECKILL_LB_UPSTREAM         the edges, host:port[,host:port...] (default: the cluster's edge-1, edge-2)
#   SECKILL_LB_TRUSTED_PROXIES  addresses or CIDRs whose X-Forwarded-For is believed (default: the stack's
#                               LB_TRUSTED_PROXIES setting; empty: none, the client's own address counts)
#   SECKILL_LB_LISTEN (127.0.0.1; in a container every address), SECKILL_LB_WORKERS (2), SECKILL_LB_KEEPALIVE (64 idle connections per worker),
#   SECKILL_LB_CONNECT_TIMEOUT (1s), SECKILL_LB_READ_TIMEOUT (SECKILL_DEADLINE_MS: above the edges' own, half a second
#   shorter, so the edge answers a slow service itself), SECKILL_LB_FAIL_TIMEOUT (5s an unreachable edge is left out), SECKILL_LB_NGINX (nginx).

# They are envsubst's to expand, not the shell's.
# shellcheck disable=SC2016
LB_VARS='${LB_USER_DIRECTIVE} ${LB_RUN} ${LB_REAL_IP} ${LB_UPSTREAM_SERVERS} ${SECKILL_LB_WORKERS} ${SECKILL_LB_LISTEN}
${SECKILL_LB_PORT} ${SECKILL_LB_KEEPALIVE} ${SECKILL_LB_CONNECT_TIMEOUT} ${SECKILL_LB_READ_TIMEOUT}'

lb_settings() {
  export LB_RUN="$RUN/$1"
  SECKILL_LB_PORT=$(node_port "$1") || die "no port for $1"
  export SECKILL_LB_PORT
  local n='^[1-9][0-9]*$' t='^[0-9]+(ms|s|m)?$'
  edge_knob SECKILL_LB_LISTEN "$(bind_address)" '^[][0-9a-fA-F.:*]+$' "an address such as 127.0.0.1 or *"
  edge_knob SECKILL_LB_WORKERS 2 '^([1-9][0-9]*|auto)$' "a number of worker processes or auto"
  edge_knob SECKILL_LB_KEEPALIVE 64 "$n" "a number of idle connections to the edges per worker"
  edge_knob SECKILL_LB_CONNECT_TIMEOUT 1s "$t" "an nginx time such as 500ms or 1s"
  deadline_knob
  # The deadline itself: past it the lb answers 503 for a silent edge (which answers half a second sooner itself).
  edge_knob SECKILL_LB_READ_TIMEOUT "${SECKILL_DEADLINE_MS}ms" "$t" "an nginx time such as 15s"
  edge_knob SECKILL_LB_FAIL_TIMEOUT 5s "$t" "an nginx time such as 5s"
  edge_knob SECKILL_LB_UPSTREAM "$(lb_edges)" '^[][A-Za-z0-9.:_, -]+$' "host:port[,host:port...]"
  edge_knob SECKILL_LB_NGINX nginx '^[A-Za-z0-9_./-]+$' "an nginx binary (nginx, openresty or a path)"
  export SECKILL_LB_TRUSTED_PROXIES=${SECKILL_LB_TRUSTED_PROXIES-${LB_TRUSTED_PROXIES:-}}
  command -v "$SECKILL_LB_NGINX" > /dev/null || die "SECKILL_LB_NGINX=$SECKILL_LB_NGINX is not installed"
  command -v envsubst > /dev/null || die "envsubst is missing (Debian: gettext-base)"

  LB_UPSTREAM_SERVERS=$(nginx_servers SECKILL_LB_UPSTREAM "max_fails=1 fail_timeout=$SECKILL_LB_FAIL_TIMEOUT") || exit 1
  LB_REAL_IP=$(nginx_real_ip SECKILL_LB_TRUSTED_PROXIES) || exit 1
  export LB_UPSTREAM_SERVERS LB_REAL_IP
  if [ "$(id -u)" = 0 ]; then export LB_USER_DIRECTIVE="user root;"; else export LB_USER_DIRECTIVE=""; fi
}

# The edges of this stack, as the lb's default upstream.
lb_edges() { joined "%s" edge; }

lb_render() {
  lb_settings "$1"
  nginx_render "$1" "$HOME_DIR/openresty/lb" "$LB_RUN" "$LB_VARS" "$SECKILL_LB_NGINX"
}
lb_healthy() { http_ok "http://127.0.0.1:$(node_port "$1")/lb/health"; }
lb_launch() {
  lb_render "$1"
  spawn "$1" "$RUN/$1/logs/nginx.out" "$SECKILL_LB_NGINX" -p "$RUN/$1" -c "$RUN/$1/conf/nginx.conf" -g 'daemon off;'
}
lb_await() { wait_for "$1" 20 "$RUN/$1/logs/error.log" lb_healthy "$1"; }
lb_stop() { stop_pid "$1" QUIT 20; }
