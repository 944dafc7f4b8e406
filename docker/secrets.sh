#!/bin/sh
# Writes .env beside compose.yaml (mode 600) with new random secrets, which `docker compose` reads. It refuses to
# overwrite one: the database and Redis keep the passwords they were first given in their volumes, so new secrets
# need `docker compose down -v` first (which deletes the data). POSIX sh, so it runs wherever Docker does.
#   sh docker/secrets.sh
set -eu
cd "$(dirname "$0")/.."
if [ -e .env ]; then
  echo "secrets.sh: .env exists already; keep it, or delete it after 'docker compose down -v' (which deletes the data)" >&2
  exit 1
fi
# 48 random bytes as base64url without padding: 64 characters, more than any minimum (tokens 32, admin 24).
secret() { head -c 48 /dev/urandom | base64 | tr -d '\n=' | tr '+/' '-_'; }
umask 077
{
  echo "# Seckill's secrets for docker compose, made by docker/secrets.sh. Keep this file private."
  for name in SECKILL_TOKEN_SECRET SECKILL_ADMIN_TOKEN SECKILL_LINE_SECRET SECKILL_REDIS_PASSWORD SECKILL_DB_PASSWORD; do
    echo "$name=$(secret)"
  done
} > .env.tmp
mv .env.tmp .env
echo "secrets.sh: wrote .env (mode 600): SECKILL_TOKEN_SECRET, SECKILL_ADMIN_TOKEN, SECKILL_LINE_SECRET, SECKILL_REDIS_PASSWORD, SECKILL_DB_PASSWORD"
