#!/usr/bin/env bash
# Makes sure a Redis server answers at REDIS_URL (default redis://127.0.0.1:6379) before the tests run:
# leaves a running server alone, starts a local one when nothing listens on the port, and installs
# Debian's redis-server first when it is missing. Only loopback addresses are ever started here.
set -euo pipefail

url="${REDIS_URL:-redis://127.0.0.1:6379}"
hostport="${url#*://}"
hostport="${hostport#*@}"
hostport="${hostport%%/*}"
host="${hostport%:*}"
port="${hostport##*:}"
[ "$host" = "$hostport" ] && port=6379
[ "$host" = "localhost" ] && host=127.0.0.1

listening() { (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; }

if listening; then
  echo "redis: already listening on $host:$port"
  exit 0
fi

case "$host" in
  127.*|::1) ;;
  *) echo "redis: nothing answers at $host:$port and it is not a loopback address, so it cannot be started here." >&2
     echo "redis: start Redis there, or set REDIS_URL to a reachable server (e.g. redis://127.0.0.1:6379)." >&2
     exit 1 ;;
esac

if ! command -v redis-server >/dev/null 2>&1; then
  echo "redis: redis-server is not installed; installing Debian's redis-server package"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq redis-server >/dev/null
fi

dir="${TMPDIR:-/tmp}/switchboard-redis-$port"
mkdir -p "$dir"
echo "redis: starting redis-server on $host:$port (data in $dir, log in $dir/redis.log)"
redis-server --daemonize yes --bind "$host" --port "$port" --save "" --appendonly no \
  --maxmemory-policy noeviction --dir "$dir" --logfile "$dir/redis.log"

for _ in $(seq 1 50); do
  listening && { echo "redis: ready on $host:$port"; exit 0; }
  sleep 0.1
done
echo "redis: redis-server did not start listening on $host:$port within 5 s; see $dir/redis.log" >&2
exit 1
