#!/bin/sh
# Starts one Switchboard service from the shared image: the first argument, else SWITCHBOARD_SERVICE.
#   docker run -e SWITCHBOARD_SERVICE=orders switchboard     or     docker run switchboard orders
# It execs node, so the service itself is PID 1 and gets SIGTERM for its drain.
set -eu

service="${1:-${SWITCHBOARD_SERVICE:-}}"

case "$service" in
  supervisor | orders | inventory | comms) ;;
  *)
    if [ -z "$service" ]; then
      echo "switchboard: no service chosen; set SWITCHBOARD_SERVICE (or pass it as the first argument) to one of: supervisor, orders, inventory, comms" >&2
    else
      echo "switchboard: unknown service \"$service\"; set SWITCHBOARD_SERVICE (or pass it as the first argument) to one of: supervisor, orders, inventory, comms" >&2
    fi
    exit 2
    ;;
esac

root="$(cd "$(dirname "$0")/.." && pwd)"
app="$root/examples/customer-service/$service"
if [ ! -f "$app/src/main.ts" ]; then
  echo "switchboard: $app/src/main.ts is missing: this image was built without the $service service; rebuild it from the repository root with infra/Dockerfile" >&2
  exit 2
fi

# What keeps a service's memory small without costing CPU, as the launcher starts it
# (SERVICE_RUNTIME in packages/team/src/service-runtime.ts; docs/operations.md "Memory"): V8's young
# generation at most 2 x 16 MB, and two glibc malloc arenas. A flag in NODE_OPTIONS, or a
# MALLOC_ARENA_MAX, that the deployment sets wins.
export NODE_OPTIONS="--max-semi-space-size=16${NODE_OPTIONS:+ $NODE_OPTIONS}"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"

if [ "${SWITCHBOARD_ENTRYPOINT_DRY_RUN:-}" = "1" ]; then
  echo "NODE_OPTIONS=$NODE_OPTIONS MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX"
  echo "cd $app && exec node src/main.ts"
  exit 0
fi

cd "$app"
exec node src/main.ts
