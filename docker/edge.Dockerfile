# syntax=docker/dockerfile:1
# The edge (and the cluster's load balancer): the OpenResty image with the project's config templates, Lua and
# sale page, rendered at start by the same script bin/seckill uses (bin/lib/edge.sh; envsubst is in the image).
# The bookworm image has bash but neither curl nor wget (its Dockerfile purges wget after use): the health probe
# is docker/http-ok.sh.
#   docker build -f docker/edge.Dockerfile -t seckill-edge:local .
ARG OPENRESTY_IMAGE=openresty/openresty:1.29.2.3-bookworm

FROM ${OPENRESTY_IMAGE} AS edge
COPY openresty /seckill/openresty
# The listener the service containers clear flags on (the public one takes /edge/* from loopback only).
COPY docker/edge-internal.conf /seckill/openresty/conf.d/50-internal.conf
COPY bin /seckill/bin
COPY --chmod=755 docker/http-ok.sh /usr/local/bin/seckill-http-ok
# Container wiring, not knobs: the port, every address, nginx is OpenResty's, the run directory (config, cache,
# logs) inside the container.
ENV SECKILL_RUN_DIR=/var/run/seckill SECKILL_EDGE_PORT=8080 SECKILL_EDGE_LISTEN=* SECKILL_EDGE_NGINX=openresty
# nginx's error log (the edge's and the lb's) goes to the container's stderr, so `docker compose logs` shows it.
RUN for node in edge lb; do mkdir -p "/var/run/seckill/$node/logs" \
      && ln -sf /dev/stderr "/var/run/seckill/$node/logs/error.log"; done
EXPOSE 8080 8090
ENTRYPOINT ["/bin/bash", "/seckill/bin/lib/edge.sh", "foreground"]
