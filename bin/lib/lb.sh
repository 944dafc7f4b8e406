# The cluster's front load balancers, lb and lb-2 (nginx with ngx_lua for the edges' health probes, in front of every
# edge): render a config from openresty/lb/ and the environment, start, stop. Sourced by bin/seckill after edge.sh
# (it renders the same way). Their knobs:
#   SECKILL_LB_UPSTREAM         the edges, host:port[,host:port...] (default: the cluster's edge-1, edge-2)
#   SECKILL_LB_TRUSTED_PROXIES  addresses or CIDRs whose X-Forwarded-For is believed (default: the stack's
#                               LB_TRUSTED_PROXIES setting; empty: none, the client's own address counts)
#   SECKILL_LB_LISTEN (127.0.0.1; in a container every address), SECKILL_LB_WORKERS (2),
#   SECKILL_LB_READ_TIMEOUT (SECKILL_DEADLINE_MS less 250 ms: above the edges' own, which is 500 ms less, so the edge
#   answers a slow service itself), SECKILL_LB_NGINX (nginx).
# Its idle connections kept per worker (64) and its connect timeout (1s) are constants in openresty/lb/nginx.conf.
# Which edges are in rotation is the health probes' to say (openresty/lua/seckill/lb.lua), not a knob.

# They are envsubst's to expand, not the shell's.
# shellcheck disable=SC2016
LB_VARS='${LB_LOAD_MODULES} ${LB_USER_DIRECTIVE} ${LB_RUN} ${LB_REAL_IP} ${LB_EDGES} ${LB_LUA} ${LB_ANSWERS} ${SECKILL_LB_WORKERS} ${SECKILL_LB_LISTEN}
${SECKILL_LB_PORT} ${SECKILL_LB_READ_TIMEOUT}'

lb_settings() {
  export LB_RUN="$RUN/$1"
  SECKILL_LB_PORT=$(node_port "$1") || die "no port for $1"
  export SECKILL_LB_PORT
  local t='^[0-9]+(ms|s|m)?$'
  edge_knob SECKILL_LB_LISTEN "$(bind_address)" '^[][0-9a-fA-F.:*]+$' "an address such as 127.0.0.1 or *"
  edge_knob SECKILL_LB_WORKERS 2 '^([1-9][0-9]*|auto)$' "a number of worker processes or auto"
  deadline_knob
  # A quarter second inside the deadline: the lb answers 503 for a silent edge (a paused one, until its probes take it
  # out) in time; an edge answers a slow service itself a quarter second sooner still.
  edge_knob SECKILL_LB_READ_TIMEOUT "$((SECKILL_DEADLINE_MS - 250))ms" "$t" "an nginx time such as 15s"
  edge_knob SECKILL_LB_UPSTREAM "$(lb_edges)" '^[][A-Za-z0-9.:_, -]+$' "host:port[,host:port...]"
  edge_knob SECKILL_LB_NGINX nginx '^[A-Za-z0-9_./-]+$' "an nginx binary (nginx, openresty or a path)"
  export SECKILL_LB_TRUSTED_PROXIES=${SECKILL_LB_TRUSTED_PROXIES-${LB_TRUSTED_PROXIES:-}}
  command -v "$SECKILL_LB_NGINX" > /dev/null || die "SECKILL_LB_NGINX=$SECKILL_LB_NGINX is not installed"
  command -v envsubst > /dev/null || die "envsubst is missing (Debian: gettext-base)"

  LB_EDGES=$(lb_addresses SECKILL_LB_UPSTREAM) || exit 1
  LB_REAL_IP=$(nginx_real_ip SECKILL_LB_TRUSTED_PROXIES) || exit 1
  LB_LOAD_MODULES=$(nginx_lua_modules "$SECKILL_LB_NGINX")
  export LB_EDGES LB_REAL_IP LB_LOAD_MODULES LB_LUA="$HOME_DIR/openresty/lua" LB_ANSWERS="$HOME_DIR/messages/answers.json"
  if [ "$(id -u)" = 0 ]; then export LB_USER_DIRECTIVE="user root;"; else export LB_USER_DIRECTIVE=""; fi
}

# lb_addresses KNOB: the host:port list in KNOB with each name resolved to an address once, now (the balancer takes
# addresses; an edge's name is resolved again when the lb starts, as nginx's own upstream blocks do).
lb_addresses() {
  local w words host port ip out=""
  words=$(host_ports "$1") || exit 1
  for w in $words; do
    [[ "$w" =~ ^\[?(.+[^]])\]?:([0-9]+)$ ]]
    host=${BASH_REMATCH[1]} port=${BASH_REMATCH[2]}
    if [[ "$host" =~ ^[0-9.]+$|: ]]; then ip=$host
    else ip=$(getent ahostsv4 "$host" | awk 'NR == 1 { print $1 }'); fi
    [ -n "$ip" ] || die "$1: cannot resolve '$host'"
    out+="${out:+,}$ip:$port"
  done
  echo "$out"
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
