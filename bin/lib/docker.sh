# A Docker engine for the test command's compose phase, made ready from nothing on Debian 12: Debian's engine
# (docker.io), compose v2 and buildx as the client's plugins (Debian 12 packages only compose v1; trixie's packages
# need only its libc), dockerd started when none runs, and the base image docker/Dockerfile names, made from Debian's
# packages when no registry serves it. Sourced by bin/seckill after common.sh.

# The image every node's image builds on (docker/Dockerfile's BASE_IMAGE, compose.yaml's SECKILL_BASE_IMAGE).
BASE_IMAGE=${SECKILL_BASE_IMAGE:-debian:trixie-slim}
PLUGIN_DIR=/usr/local/lib/docker/cli-plugins
# The pid of the dockerd this script started (empty: it started none).
DOCKERD_PID=""

# The Debian mirror apt uses here (the first URI of its sources), for trixie's packages and the base image.
debian_mirror() {
  local uri
  uri=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2> /dev/null | grep -v security | head -1)
  [ -n "$uri" ] || uri=$(awk '$1 == "deb" && $3 !~ /security/ { print $2; exit }' /etc/apt/sources.list 2> /dev/null)
  echo "${uri:-http://deb.debian.org/debian}"
}

# compose v2 and buildx from trixie's packages, fetched by apt with a state of its own (signatures checked as for any
# apt source, nothing added to this machine's sources) and unpacked as the client's plugins.
compose_plugins_install() {
  local dir="$CACHE/trixie-apt" opts p
  say "installing compose v2 and buildx (trixie's docker-compose and docker-buildx) into $PLUGIN_DIR"
  rm -rf "$dir"
  mkdir -p "$dir"/{lists/partial,archives/partial,debs,x}
  echo "deb $(debian_mirror) trixie main" > "$dir/sources.list"
  touch "$dir/status"
  opts=(-o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State=$dir"
    -o "Dir::State::Lists=$dir/lists" -o "Dir::State::status=$dir/status" -o "Dir::Cache=$dir")
  apt-get "${opts[@]}" -qq update > "$dir/apt.log" 2>&1 || die "apt-get update of trixie failed: see $dir/apt.log"
  (cd "$dir/debs" && apt-get "${opts[@]}" -qq download docker-compose docker-buildx) >> "$dir/apt.log" 2>&1 \
    || die "failed to download trixie's docker-compose and docker-buildx: see $dir/apt.log"
  for p in "$dir"/debs/*.deb; do dpkg -x "$p" "$dir/x"; done
  mkdir -p "$PLUGIN_DIR"
  install -m 755 "$dir"/x/usr/libexec/docker/cli-plugins/docker-{compose,buildx} "$PLUGIN_DIR/"
  docker compose version > /dev/null 2>&1 || die "docker compose does not run after installing it: see $dir/apt.log"
}

# The engine's packages, and the plugins unless `docker compose` works already.
docker_install() {
  install_packages docker.io debootstrap
  docker compose version > /dev/null 2>&1 || compose_plugins_install
}

# Starts dockerd in the background unless an engine answers (there is no systemd here); stopped by docker_stop.
docker_start() {
  docker info > /dev/null 2>&1 && return 0
  say "starting dockerd (log: $CACHE/dockerd.log)"
  mkdir -p "$CACHE"
  # A session of its own: an engine left running (docker-ready) outlives this script's process group.
  setsid dockerd > "$CACHE/dockerd.log" 2>&1 < /dev/null &
  DOCKERD_PID=$!
  local deadline=$((SECONDS + 60))
  until docker info > /dev/null 2>&1; do
    kill -0 "$DOCKERD_PID" 2> /dev/null || die "dockerd exited: see $CACHE/dockerd.log"
    [ $SECONDS -lt $deadline ] || die "dockerd did not answer in 60 s: see $CACHE/dockerd.log"
    sleep 0.5
  done
}

docker_stop() {
  [ -n "$DOCKERD_PID" ] || return 0
  kill -TERM "$DOCKERD_PID" 2> /dev/null || return 0
  local deadline=$((SECONDS + 30))
  while kill -0 "$DOCKERD_PID" 2> /dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.5; done
  DOCKERD_PID=""
}

# Everything `docker compose` needs on this host: the engine and its plugins, a running engine, the base image.
docker_ready() {
  docker_install
  docker_start
  docker_base_image
}

# The base image: pulled where a registry serves it, else made from Debian's packages (debootstrap, then import).
docker_base_image() {
  docker image inspect "$BASE_IMAGE" > /dev/null 2>&1 && return 0
  timeout 60 docker pull -q "$BASE_IMAGE" > /dev/null 2>&1 && return 0
  local root="$CACHE/base-root" suite=${BASE_IMAGE#*:}
  suite=${suite%-slim}
  say "no registry serves $BASE_IMAGE: making it with debootstrap ($suite, minbase) from $(debian_mirror)"
  rm -rf "$root"
  debootstrap --variant=minbase "$suite" "$root" "$(debian_mirror)" > "$CACHE/debootstrap.log" 2>&1 \
    || die "debootstrap failed: see $CACHE/debootstrap.log"
  # What the official slim image leaves out too: apt's lists and caches, documentation.
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
    "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/*
  tar -C "$root" -c . | docker import - "$BASE_IMAGE" > /dev/null || die "docker import of $BASE_IMAGE failed"
  rm -rf "$root"
}

# The certificate authorities this machine trusts beyond Debian's (PEM), for the images' build (compose.yaml's
# SECKILL_EXTRA_CA_FILE); empty when there are none.
extra_ca_file() {
  local f out="$CACHE/extra-ca.pem"
  set -- /usr/local/share/ca-certificates/*.crt
  [ -e "$1" ] || return 0
  mkdir -p "$CACHE"
  for f in "$@"; do cat "$f"; echo; done > "$out"
  echo "$out"
}
