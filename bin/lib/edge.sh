#!/usr/bin/env bash
# The edge (nginx + Lua) of the local stack: render its config from openresty/ and the environment, start,
# reload, stop. Sourced by bin/seckill; also runnable on its own (end of file) to run just an edge, without the
# JDK, the jars or a build. The knobs (SECKILL_EDGE_*) and their defaults are documented in openresty/README.md;
# every one is validated here so a typo fails the start or reload with a clear message. The values nobody needs to
# turn are constants where they are used (openresty/conf.d/00-tunables.conf, lua/seckill/admission.lua), or below when
# a template uses them more than once; docs/configuration.md ("What is a knob") lists them with their reasons.

# The per-IP zones' size, each: 1 MB holds about 16,000 client addresses, so 10 MB holds 160,000 (past that the least
# recently seen address is forgotten, and starts a fresh bucket); nginx touches the memory only as addresses come.
EDGE_ZONE_SIZE=10m
# The largest request body of a purchase, challenge, path or line request: the contract caps it at 1 KiB
# (docs/contract.md), a rule of the API rather than a choice of the operator; a larger one is 413 at the edge.
EDGE_BODY_MAX=1k

# Only these variables are substituted: nginx's own $variables in the templates are left alone.
# They are envsubst's to expand, not the shell's.
# shellcheck disable=SC2016
EDGE_VARS='${EDGE_LOAD_MODULES} ${SECKILL_EDGE_PORT} ${SECKILL_EDGE_LISTEN} ${SECKILL_EDGE_WORKERS} ${SECKILL_EDGE_BURST}
${SECKILL_EDGE_READ_BURST} ${SECKILL_EDGE_ORDER_BURST} ${SECKILL_EDGE_LOGIN_BURST} ${SECKILL_EDGE_CONN_PER_IP}
${EDGE_ZONE_SIZE} ${SECKILL_EDGE_SOLDOUT_TTL} ${SECKILL_EDGE_READ_TIMEOUT}
${EDGE_BODY_MAX} ${SECKILL_EDGE_MICROCACHE_TTL} ${EDGE_HTML_ROOT}
${EDGE_RATE} ${EDGE_READ_RATE} ${EDGE_ORDER_RATE} ${EDGE_LOGIN_RATE}
${SECKILL_EDGE_ADMIT_RATE} ${SECKILL_EDGE_ADMIT_IN_FLIGHT} ${SECKILL_EDGE_WORKER_CONNECTIONS} ${SECKILL_EDGE_NOFILE}
${SECKILL_EDGE_BACKLOG} ${EDGE_PURCHASE_ACCESS_LOG}
${EDGE_UPSTREAM_SERVERS} ${EDGE_REAL_IP} ${EDGE_RUN} ${EDGE_HOME} ${EDGE_USER_DIRECTIVE} ${EDGE_INTERNAL_PORT}
${EDGE_SERVICE_BUDGET_MS}'

# edge_knob VAR DEFAULT REGEX WHAT: exports VAR (default if unset or empty), dies unless it matches REGEX.
edge_knob() {
  local var=$1 def=$2 re=$3 what=$4 val
  val=${!var:-$def}
  [[ "$val" =~ $re ]] || die "$var='$val' is invalid: expected $what"
  export "$var=$val"
}

# SECKILL_DEADLINE_MS: the one deadline every answer comes within, at the entry point (the lb, or an edge with no lb in
# front). The lb's and the edges' read timeouts and the service's budget are cut from it (docs/configuration.md). Its
# default is the stack's DEADLINE_MS setting (bin/stack.env).
deadline_knob() {
  edge_knob SECKILL_DEADLINE_MS "$DEADLINE_MS" '^[1-9][0-9]{3,4}$' "milliseconds, from 1500 to 99999"
  [ "$SECKILL_DEADLINE_MS" -ge 1500 ] || die "SECKILL_DEADLINE_MS=$SECKILL_DEADLINE_MS is below 1500"
}

# edge_rate VAR KNOB: exports VAR as nginx wants the knob's rate ("20r/s"): a bare number means per second.
edge_rate() {
  local rate=${!2}
  [[ "$rate" == *r/* ]] || rate="${rate}r/s"
  export "$1=$rate"
}

# The default of SECKILL_EDGE_NOFILE: 65536, or the hard open-files limit when it is lower and this shell may not
# raise it (no CAP_SYS_RESOURCE, as in many containers), since nginx could not set more than that anyway.
edge_nofile_default() {
  local want=65536 hard
  hard=$(ulimit -Hn)
  if [ "$hard" != unlimited ] && [ "$hard" -lt "$want" ] && ! (ulimit -Hn "$want") 2> /dev/null; then want=$hard; fi
  echo "$want"
}

# Splits a space- or comma-separated list into words.
edge_words() { echo "${1//,/ }"; }

# host_ports KNOB: the host:port words of the list in KNOB, one a line ([v6]:port too); stops on any other word or
# an empty list.
host_ports() {
  local w n=0
  for w in $(edge_words "${!1}"); do
    [[ "$w" =~ ^[][A-Za-z0-9._:-]+:[0-9]+$ ]] || die "$1: '$w' is not host:port"
    echo "$w"
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] || die "$1 is empty"
}

# nginx_servers KNOB PARAMS: the upstream's `server host:port PARAMS;` lines for the host:port list in KNOB.
nginx_servers() {
  local w words
  words=$(host_ports "$1") || exit 1
  for w in $words; do echo "    server $w${2:+ $2};"; done
}

# nginx_lua_modules NGINX: the load_module lines ngx_lua needs: Debian's nginx loads it as dynamic modules;
# OpenResty has it built in.
nginx_lua_modules() {
  if "$1" -V 2>&1 | grep -qE 'ngx_lua|lua-nginx-module'; then
    echo "# ngx_lua is built into $1."
  else
    printf '%s\n' "load_module /usr/lib/nginx/modules/ndk_http_module.so;" \
      "load_module /usr/lib/nginx/modules/ngx_http_lua_module.so;"
  fi
}

# nginx_real_ip KNOB: X-Forwarded-For is believed only from the proxies listed in KNOB; with none listed there is no
# real_ip at all, so a client cannot choose its own address (and rate-limit bucket) by sending the header.
nginx_real_ip() {
  local w out=""
  for w in $(edge_words "${!1}"); do
    [[ "$w" =~ ^[0-9a-fA-F.:]+(/[0-9]{1,3})?$ ]] || die "$1: '$w' is not an address or CIDR"
    out+="set_real_ip_from $w;"$'\n'
  done
  if [ -n "$out" ]; then
    echo "${out}real_ip_header X-Forwarded-For;"$'\n'"real_ip_recursive on;"
  else
    echo "# $1 is empty: X-Forwarded-For from clients is ignored."
  fi
}

# edge_settings NODE: the knobs of one edge node (the single stack's is named edge; the cluster's edge-1, edge-2).
edge_settings() {
  export EDGE_RUN="$RUN/$1" EDGE_HOME="$HOME_DIR/openresty"
  SECKILL_EDGE_PORT=$(node_port "$1") || die "no port for $1"
  EDGE_INTERNAL_PORT=$(node_port "$1" EDGE_INTERNAL_PORT)
  export SECKILL_EDGE_PORT EDGE_INTERNAL_PORT
  local n='^[1-9][0-9]*$' t='^[0-9]+(ms|s|m)?$' r='^[1-9][0-9]*(r/s|r/m)?$' path='^/[^;{}[:space:]]*$'
  edge_knob SECKILL_EDGE_LISTEN "$(bind_address)" '^[][0-9a-fA-F.:*]+$' "an address such as 127.0.0.1 or *"
  edge_knob SECKILL_EDGE_WORKERS 2 '^([1-9][0-9]*|auto)$' "a number of worker processes or auto"
  edge_knob SECKILL_EDGE_RATE 20 "$r" "purchases per second per IP (20, 20r/s or 30r/m)"
  edge_knob SECKILL_EDGE_BURST 40 "$n" "a whole number of requests >= 1 (nginx has no burst=0)"
  edge_knob SECKILL_EDGE_READ_RATE 50 "$r" "sale reads per second per IP (50, 50r/s or 600r/m)"
  edge_knob SECKILL_EDGE_READ_BURST 100 "$n" "a whole number of requests >= 1"
  edge_knob SECKILL_EDGE_ORDER_RATE 10 "$r" "order status reads per second per IP (10, 10r/s or 120r/m)"
  edge_knob SECKILL_EDGE_ORDER_BURST 20 "$n" "a whole number of requests >= 1"
  edge_knob SECKILL_EDGE_LOGIN_RATE 30r/m "$r" "sign-ins per IP (30r/m, or per second: 1, 1r/s)"
  edge_knob SECKILL_EDGE_LOGIN_BURST 10 "$n" "a whole number of requests >= 1"
  edge_knob SECKILL_EDGE_CONN_PER_IP 64 "$n" "a number of requests in progress per IP >= 1"
  edge_knob SECKILL_EDGE_SOLDOUT_TTL 5 "$n" "whole seconds >= 1"
  edge_knob SECKILL_EDGE_ADMIT_RATE 50000 "$n" "at most this many purchases per second this edge forwards, >= 1"
  edge_knob SECKILL_EDGE_ADMIT_IN_FLIGHT 256 "$n" "at most this many purchases in flight to the service at once, >= 1"
  edge_knob SECKILL_EDGE_WORKER_CONNECTIONS 16384 "$n" "connections per worker (clients and upstream)"
  edge_knob SECKILL_EDGE_NOFILE "$(edge_nofile_default)" "$n" "open files per worker"
  edge_knob SECKILL_EDGE_BACKLOG 16384 "$n" "the listen queue's length (the kernel caps it at net.core.somaxconn)"
  [ "$SECKILL_EDGE_NOFILE" -ge "$SECKILL_EDGE_WORKER_CONNECTIONS" ] \
    || die "SECKILL_EDGE_NOFILE=$SECKILL_EDGE_NOFILE is below SECKILL_EDGE_WORKER_CONNECTIONS=$SECKILL_EDGE_WORKER_CONNECTIONS"
  deadline_knob
  # The edge answers a silent service itself half a second before the deadline, and gives the service a budget half
  # a second shorter again (X-Seckill-Budget-Ms), so each hop answers before the one in front of it gives up.
  edge_knob SECKILL_EDGE_READ_TIMEOUT "$((SECKILL_DEADLINE_MS - 500))ms" "$t" "an nginx time such as 10s"
  export EDGE_SERVICE_BUDGET_MS=$((SECKILL_DEADLINE_MS - 1000))
  edge_knob SECKILL_EDGE_MICROCACHE_TTL 1s "$t" "an nginx time such as 1s"
  # The page: a directory that holds an installed page already (the Docker image's, a test's own), or by default
  # openresty/html, which edge_render installs into the node's run directory (edge_page).
  EDGE_HTML_ROOT=${SECKILL_EDGE_HTML_ROOT:-$EDGE_RUN/html}
  [[ "$EDGE_HTML_ROOT" =~ $path ]] \
    || die "SECKILL_EDGE_HTML_ROOT='$EDGE_HTML_ROOT' is invalid: expected an absolute directory path"
  export EDGE_HTML_ROOT EDGE_ZONE_SIZE EDGE_BODY_MAX
  edge_knob SECKILL_EDGE_UPSTREAM "$(node_host service):$SERVICE_PORT" '^[][A-Za-z0-9.:_, -]+$' "host:port[,host:port...]"
  edge_knob SECKILL_EDGE_NGINX nginx '^[A-Za-z0-9_./-]+$' "an nginx binary (nginx, openresty or a path)"
  export SECKILL_EDGE_TRUSTED_PROXIES=${SECKILL_EDGE_TRUSTED_PROXIES:-}
  command -v "$SECKILL_EDGE_NGINX" > /dev/null || die "SECKILL_EDGE_NGINX=$SECKILL_EDGE_NGINX is not installed"
  command -v envsubst > /dev/null || die "envsubst is missing (Debian: gettext-base)"
  [ -z "${SECKILL_EDGE_HTML_ROOT:-}" ] || [ -d "$SECKILL_EDGE_HTML_ROOT" ] \
    || die "SECKILL_EDGE_HTML_ROOT=$SECKILL_EDGE_HTML_ROOT is not a directory"

  edge_rate EDGE_RATE SECKILL_EDGE_RATE
  edge_rate EDGE_READ_RATE SECKILL_EDGE_READ_RATE
  edge_rate EDGE_ORDER_RATE SECKILL_EDGE_ORDER_RATE
  edge_rate EDGE_LOGIN_RATE SECKILL_EDGE_LOGIN_RATE
  # The line tickets' secret (the service holds the same): in nginx's environment (nginx.conf's env directive),
  # never in its rendered files.
  SECKILL_LINE_SECRET=$(kept_secret SECKILL_LINE_SECRET line-secret 32)
  export SECKILL_LINE_SECRET
  # The purchase log (conf.d/seckill.conf's log_format seckill_purchase), read by bin/seckill trace.
  edge_knob SECKILL_EDGE_PURCHASE_LOG on '^(on|off)$' "on or off"
  EDGE_PURCHASE_ACCESS_LOG="access_log off;"
  [ "$SECKILL_EDGE_PURCHASE_LOG" = off ] \
    || EDGE_PURCHASE_ACCESS_LOG="access_log $EDGE_RUN/logs/purchase.log seckill_purchase buffer=64k flush=1s if=\$upstream_addr;"
  export EDGE_PURCHASE_ACCESS_LOG

  EDGE_UPSTREAM_SERVERS=$(nginx_servers SECKILL_EDGE_UPSTREAM "") || exit 1
  EDGE_REAL_IP=$(nginx_real_ip SECKILL_EDGE_TRUSTED_PROXIES) || exit 1
  export EDGE_UPSTREAM_SERVERS EDGE_REAL_IP

  EDGE_LOAD_MODULES=$(nginx_lua_modules "$SECKILL_EDGE_NGINX")
  export EDGE_LOAD_MODULES

  # Workers of a root master run as nobody, who may not read a checkout under /root: keep them root locally.
  if [ "$(id -u)" = 0 ]; then export EDGE_USER_DIRECTIVE="user root;"; else export EDGE_USER_DIRECTIVE=""; fi
}

# nginx_render WHAT TEMPLATES RUN_DIR VARS NGINX: renders TEMPLATES/nginx.conf and TEMPLATES/conf.d/*.conf (only the
# variables VARS) into RUN_DIR/conf.new and tests them there; only a config that passes `nginx -t` replaces
# RUN_DIR/conf, so a bad knob on reload leaves the running (and the next) config intact. The edge and the cluster's
# load balancer (bin/lib/lb.sh) are rendered alike.
nginx_render() {
  local what=$1 home=$2 run=$3 vars=$4 nginx=$5 new="$3/conf.new" f out
  rm -rf "$new"
  mkdir -p "$new/conf.d" "$run"/{logs,tmp,cache}
  envsubst "$vars" < "$home/nginx.conf" > "$new/nginx.conf"
  for f in "$home"/conf.d/*.conf; do
    [ -e "$f" ] || continue
    out="$new/conf.d/${f##*/}"
    envsubst "$vars" < "$f" > "$out"
  done
  "$nginx" -t -q -p "$run" -c "$new/nginx.conf" 2> "$run/logs/configtest.log" \
    || die "$what config is invalid: see $run/logs/configtest.log (rendered in $new)"
  rm -rf "$run/conf.old"
  [ -d "$run/conf" ] && mv "$run/conf" "$run/conf.old"
  mv "$new" "$run/conf"
  rm -rf "$run/conf.old"
}
# edge_page: unless SECKILL_EDGE_HTML_ROOT names a page installed elsewhere, installs openresty/html into the node's
# run directory (html/install.sh: each asset under a content-hashed name, which the edge keeps a year, and the pages
# pointing at them). On every start and reload, so an edited page is served as soon as the edge is.
edge_page() {
  [ -z "${SECKILL_EDGE_HTML_ROOT:-}" ] || return 0
  "$EDGE_HOME/html/install.sh" "$EDGE_HOME/html" "$EDGE_HTML_ROOT" > /dev/null \
    || die "failed to install the sale page into $EDGE_HTML_ROOT"
}
edge_render() {
  edge_settings "$1"
  nginx_render "$1" "$EDGE_HOME" "$EDGE_RUN" "$EDGE_VARS" "$SECKILL_EDGE_NGINX"
  edge_page
}
# cluster: true. Each edge then balances over every service of the stack and believes X-Forwarded-For from the
# addresses of the stack's EDGE_TRUSTED_PROXIES setting only (the load balancer), whatever the environment says.
EDGE_ALL_SERVICES=false
edge_env() {
  [ "$EDGE_ALL_SERVICES" = true ] || return 0
  SECKILL_EDGE_UPSTREAM=$(joined "%s" service)
  export SECKILL_EDGE_UPSTREAM SECKILL_EDGE_TRUSTED_PROXIES="$EDGE_TRUSTED_PROXIES"
}
# The edges' flag API (/edge/flags) as the services reach it. Natively each edge's own port: its public listener
# answers /edge/* to a loopback peer only. In containers the service is another host, so it calls the internal
# listener the image adds (docker/edge-internal.conf, published nowhere) on port EDGE_INTERNAL_PORT (+ n - 1).
EDGE_INTERNAL_PORT=8090
edge_admin_urls() { if in_container; then joined "http://%s" edge EDGE_INTERNAL_PORT; else joined "http://%s" edge; fi; }
edge_healthy() { http_ok "http://127.0.0.1:$(node_port "$1")/edge/health"; }
edge_launch() {
  edge_env "$1"
  edge_render "$1"
  spawn "$1" "$RUN/$1/logs/nginx.out" "$SECKILL_EDGE_NGINX" -p "$RUN/$1" -c "$RUN/$1/conf/nginx.conf" -g 'daemon off;'
}
edge_await() { wait_for "$1" 20 "$RUN/$1/logs/error.log" edge_healthy "$1"; }
edge_start() { edge_launch "$1"; edge_await "$1"; }
# Re-renders a node's config from the environment and reloads without dropping connections (shared dicts survive).
edge_reload() {
  local pid
  pid=$(live_pid "$1") || die "$1 is not running"
  edge_env "$1"
  edge_render "$1"
  kill -HUP "$pid"
}
edge_stop() { stop_pid "$1" QUIT 20; }

# Run on its own: `bin/lib/edge.sh start|stop|reload` manages the edge of the stack that SECKILL_RUN_DIR,
# SECKILL_EDGE_PORT and SECKILL_SERVICE_PORT name (the same variables and defaults as bin/seckill, the same pid
# file, so `bin/seckill status|down|reload-edge` see it too). For an edge in front of a service elsewhere, and
# for the edge tests, which put one in front of a stub without building anything.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  HOME_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  # shellcheck source=common.sh
  . "$HOME_DIR/bin/lib/common.sh"
  stack_settings
  case ${1:-} in
    start)
      if ! live_pid edge > /dev/null; then
        claim_port edge "$EDGE_PORT" SECKILL_EDGE_PORT
        say "starting edge on 127.0.0.1:$EDGE_PORT"
        edge_start edge
      fi ;;
    stop) edge_stop edge ;;
    reload) edge_reload edge; say "edge reloaded" ;;
    *) die "usage: bin/lib/edge.sh start|stop|reload" ;;
  esac
fi
