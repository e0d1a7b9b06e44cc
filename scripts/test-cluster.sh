#!/usr/bin/env bash
# The cluster stage of the tests: starts a Redis Cluster on loopback (scripts/redis-cluster.sh: three
# masters, three replicas, free ports, a temporary directory), runs the suites that must hold on a
# cluster with REDIS_CLUSTER_NODES pointing at it (the BullMQ binding, the stores and a system suite, the
# walk of every script and multi-key call, and the failover drill), and stops the cluster on any exit. A failure here says
# "cluster:" and which suite.
set -euo pipefail
cd "$(dirname "$0")/.."

dir="$(mktemp -d "${TMPDIR:-/tmp}/switchboard-cluster-XXXXXX")"
trap 'bash scripts/redis-cluster.sh stop "$dir"' EXIT

echo "cluster: starting a Redis Cluster (3 masters, 3 replicas) on loopback"
nodes="$(bash scripts/redis-cluster.sh start "$dir")"
export REDIS_CLUSTER_NODES="$nodes"
unset REDIS_URL
echo "cluster: REDIS_CLUSTER_NODES=$REDIS_CLUSTER_NODES"

run() {
  local package="$1"
  shift
  echo "cluster: $package $*"
  if ! (cd "$package" && ./node_modules/.bin/vitest run "$@"); then
    echo "cluster: FAILED on the Redis Cluster: $package $* (the same suite passes on one node? then it is a cluster problem)" >&2
    exit 1
  fi
}

run e2e test/cluster-keys.test.ts
run packages/a2a-bullmq test/queue-binding.test.ts
run packages/redis test/redis-connection.test.ts
run packages/delegate test/registry.test.ts
run packages/host test/redis-task-store.test.ts test/task-event-log.test.ts test/event-streams.test.ts test/run-state-history.test.ts \
  test/task-ledger.test.ts test/registry-client.test.ts test/approval-board.test.ts \
  test/approval-binding.test.ts test/message-dedup.test.ts test/request-limits.test.ts \
  test/bindings-parity.test.ts test/conversation-owner.test.ts test/queue-drills.test.ts \
  test/supervisor-delegation.test.ts
# The failover drill starts a cluster of its own: it kills one of its masters.
run packages/host test/cluster-failover.test.ts
run packages/service test/worker-service.test.ts
# TLS only and an ACL user, on a cluster of its own.
run packages/service test/secured-redis.test.ts
# A real service through a failover, on a cluster of its own.
run packages/service test/cluster-failover-service.test.ts
run packages/cli test/seed-cluster.test.ts test/dev-cluster.test.ts
echo "cluster: every suite passed on the Redis Cluster"
