#!/usr/bin/env bash
# A throwaway Redis Cluster on loopback for the tests: six redis-server processes (three masters, three
# replicas) in a directory of their own, on free ports, made into a cluster with
# `redis-cli --cluster create`.
#
#   scripts/redis-cluster.sh start <dir>   starts it, waits until every node reports cluster_state:ok
#                                          and every replica is in sync, and prints the node list
#                                          (REDIS_CLUSTER_NODES form) on stdout; also in <dir>/nodes
#   scripts/redis-cluster.sh stop <dir>    stops every server it started there and removes <dir>
#
# Nothing is persisted; the servers live until `stop` (scripts/test-cluster.sh stops them on any exit).
#
# A secured cluster, as production runs one, when these are set for `start`:
#   REDIS_CLUSTER_TLS_DIR   a directory with ca.crt, redis.crt and redis.key: every node then speaks TLS
#                           only (clients, the cluster bus and replication; no plain port)
#   REDIS_CLUSTER_USER      an ACL user with this password (REDIS_CLUSTER_PASSWORD) is the only login:
#                           the default user is off, replicas log in to their masters as this user
set -euo pipefail

NODES=6
# How long a master may be silent before its replica takes over: short, for the failover drill.
NODE_TIMEOUT_MS="${REDIS_CLUSTER_NODE_TIMEOUT_MS:-3000}"

usage() { echo "usage: $0 start|stop <dir>" >&2; exit 2; }
[ $# -eq 2 ] || usage
action="$1"
dir="$2"

free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# 2*NODES consecutive free ports below the ephemeral range: the data ports, then the cluster bus ports.
pick_ports() {
  for _ in $(seq 1 200); do
    local first=$((20000 + RANDOM % 11000)) ok=1
    for offset in $(seq 0 $((2 * NODES - 1))); do
      free $((first + offset)) || { ok=0; break; }
    done
    [ "$ok" = 1 ] && { echo "$first"; return 0; }
  done
  echo "redis-cluster: found no $((2 * NODES)) free consecutive ports between 20000 and 31000" >&2
  return 1
}

wait_for() { # <what> <seconds> <command...>
  local what="$1" seconds="$2"
  shift 2
  for _ in $(seq 1 $((seconds * 10))); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "redis-cluster: $what did not happen within ${seconds} s; logs in $dir" >&2
  return 1
}

tls_dir="${REDIS_CLUSTER_TLS_DIR:-}"
user="${REDIS_CLUSTER_USER:-}"
server_args=()
cli_args=()
if [ -n "$tls_dir" ] && [ "$action" = start ]; then
  for file in ca.crt redis.crt redis.key; do
    [ -f "$tls_dir/$file" ] || { echo "redis-cluster: REDIS_CLUSTER_TLS_DIR has no $file: $tls_dir" >&2; exit 2; }
  done
  server_args+=(--tls-cluster yes --tls-replication yes --tls-auth-clients no
    --tls-cert-file "$tls_dir/redis.crt" --tls-key-file "$tls_dir/redis.key" --tls-ca-cert-file "$tls_dir/ca.crt")
  cli_args+=(--tls --cacert "$tls_dir/ca.crt")
fi
if [ -n "$user" ] && [ "$action" = start ]; then
  [ -n "${REDIS_CLUSTER_PASSWORD:-}" ] || { echo "redis-cluster: REDIS_CLUSTER_USER needs REDIS_CLUSTER_PASSWORD" >&2; exit 2; }
  server_args+=(--user default off --user "$user" on ">$REDIS_CLUSTER_PASSWORD" '~*' '&*' '+@all'
    --masteruser "$user" --masterauth "$REDIS_CLUSTER_PASSWORD")
  cli_args+=(--user "$user" --pass "$REDIS_CLUSTER_PASSWORD" --no-auth-warning)
fi
cli() { redis-cli "${cli_args[@]}" "$@"; }

# The data port: plain, or TLS only when the cluster is secured.
port_args() { if [ -n "$tls_dir" ]; then echo "--port 0 --tls-port $1"; else echo "--port $1"; fi; }

cluster_ok() { cli -p "$1" cluster info | grep -q '^cluster_state:ok'; }

replicas_synced() {
  for port in "${ports[@]}"; do
    local info
    info="$(cli -p "$port" info replication)"
    if grep -q '^role:slave' <<<"$info"; then
      grep -q '^master_link_status:up' <<<"$info" || return 1
      grep -q '^master_sync_in_progress:0' <<<"$info" || return 1
    fi
  done
}

case "$action" in
  start)
    command -v redis-server >/dev/null && command -v redis-cli >/dev/null || {
      echo "redis-cluster: redis-server and redis-cli are needed (Debian: apt-get install redis-server)" >&2
      exit 1
    }
    mkdir -p "$dir"
    first="$(pick_ports)"
    ports=()
    for index in $(seq 0 $((NODES - 1))); do
      port=$((first + index))
      ports+=("$port")
      mkdir -p "$dir/$port"
      # shellcheck disable=SC2046 # port_args is words on purpose
      redis-server --daemonize yes --bind 127.0.0.1 $(port_args "$port") --cluster-enabled yes \
        --cluster-port $((first + NODES + index)) --cluster-config-file "$dir/$port/nodes.conf" \
        --cluster-node-timeout "$NODE_TIMEOUT_MS" --save "" --appendonly no --maxmemory-policy noeviction \
        --dir "$dir/$port" --logfile "$dir/$port/redis.log" --pidfile "$dir/$port/redis.pid" \
        "${server_args[@]}" >/dev/null
    done
    for port in "${ports[@]}"; do wait_for "redis-server on port $port answering" 10 cli -p "$port" ping; done
    cli --cluster create $(printf '127.0.0.1:%s ' "${ports[@]}") --cluster-replicas 1 --cluster-yes \
      >"$dir/create.log" 2>&1 || { cat "$dir/create.log" >&2; exit 1; }
    for port in "${ports[@]}"; do wait_for "cluster_state:ok on port $port" 60 cluster_ok "$port"; done
    wait_for "every replica in sync with its master" 60 replicas_synced
    printf '127.0.0.1:%s,' "${ports[@]}" | sed 's/,$//' >"$dir/nodes"
    cat "$dir/nodes"
    echo
    ;;
  stop)
    [ -d "$dir" ] || exit 0
    # Read every pid first: a server removes its pidfile as it exits.
    pids=()
    for pidfile in "$dir"/*/redis.pid; do
      [ -f "$pidfile" ] && pids+=("$(cat "$pidfile" 2>/dev/null || true)")
    done
    for pid in "${pids[@]}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
      [ -n "$pid" ] || continue
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    done
    rm -rf "$dir"
    ;;
  *) usage ;;
esac
