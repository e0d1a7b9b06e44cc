#!/usr/bin/env bash
# Runs the official A2A conformance kit (a2a-tck, 1.0 line) against Switchboard's supervisor and
# prints its counts. See docs/conformance.md for how to get the kit and what the figures were.
#
#   scripts/conformance/run-tck.sh <a2a-tck checkout> [options] [-- <extra pytest arguments>]
#
# Options:
#   --card-version V  fetch the agent card with `A2A-Version: V` (default: no header, as the kit does)
#   --sut URL         test an agent already running at URL instead of starting `switchboard dev`
#                     (its bearer token, if it needs one, in TCK_SUT_TOKEN)
#   --reference       test reference-server.mjs (a plain @a2a-js/sdk agent) instead, to tell the
#                     SDK's and the kit's failures from Switchboard's
#   --reports DIR     where the kit's reports and the log go (default: a new directory under /tmp)
#
# Exits 0 when every test the kit failed is listed in expected-failures.txt (beside this script, each
# with its cause), 1 when one is not, and with the kit's own status when it could not run at all.
#
# Environment:
#   GOOGLEAPIS_DIR    a checkout of https://github.com/googleapis/googleapis: the google/api and
#                     google/rpc protos the kit imports are compiled from it with Debian's protoc
#                     (not needed when python can already import them)
#   PYTHON            the interpreter (default /usr/bin/python3, with Debian's python3-* packages)
#
# Without --sut or --reference it starts `switchboard dev` from this checkout on free loopback ports, in a Redis
# namespace of its own (or in process when no Redis answers), with the per-customer rate and
# concurrency limits off (the kit sends a few hundred requests in seconds as one customer), and
# stops it, removes that namespace's keys and its temporary files on exit, whatever happens.
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 2
}

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/scripts/conformance"
PYTHON="${PYTHON:-/usr/bin/python3}"

[[ $# -ge 1 && $1 != -* ]] || usage
TCK="$(cd "$1" && pwd)"
shift
CARD_VERSION=""
SUT_URL=""
REFERENCE=""
REPORTS=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --card-version) CARD_VERSION="$2"; shift 2 ;;
    --sut) SUT_URL="${2%/}"; shift 2 ;;
    --reference) REFERENCE=1; shift ;;
    --reports) REPORTS="$2"; shift 2 ;;
    --) shift; break ;;
    -h | --help) usage ;;
    *) echo "run-tck: unknown option $1" >&2; usage ;;
  esac
done
[[ -d $TCK/tests/compatibility ]] || { echo "run-tck: $TCK is not an a2a-tck checkout (no tests/compatibility)" >&2; exit 2; }

WORK="$(mktemp -d /tmp/switchboard-tck.XXXXXX)"
REPORTS="${REPORTS:-$WORK/reports}"
mkdir -p "$REPORTS"
REPORTS="$(cd "$REPORTS" && pwd)"
NAMESPACE="tck-$(date +%s)-$$"
SUT_PID=""
KIT_PID=""

cleanup() {
  local status=$?
  if [[ -n $KIT_PID ]]; then
    kill -TERM "$KIT_PID" 2>/dev/null || true
    wait "$KIT_PID" 2>/dev/null || true
  fi
  if [[ -n $SUT_PID ]] && kill -0 "$SUT_PID" 2>/dev/null; then
    # dev stops its services on SIGTERM; each service also stops when dev's IPC channel closes.
    kill -TERM "$SUT_PID" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$SUT_PID" 2>/dev/null || break; sleep 0.5; done
    # Still there after 30 s: end its whole process group (setsid made it the group's leader).
    kill -KILL -- "-$SUT_PID" 2>/dev/null || true
  fi
  if [[ -n $SUT_PID ]] && command -v redis-cli >/dev/null && [[ -f $WORK/redis-url ]]; then
    local url
    url="$(cat "$WORK/redis-url")"
    for pattern in "{$NAMESPACE}*" "{$NAMESPACE:*" "$NAMESPACE:*"; do
      redis-cli -u "$url" --scan --pattern "$pattern" 2>/dev/null | xargs -r -n 100 redis-cli -u "$url" del >/dev/null 2>&1 || true
    done
  fi
  [[ -n $SUT_PID ]] && cp "$WORK/sut.log" "$REPORTS/sut.log" 2>/dev/null || true
  rm -rf "$WORK/python" "$WORK/run" "$WORK/redis-url" "$WORK/sut.log"
  [[ $REPORTS == "$WORK"/* ]] || rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the kit's python modules ---------------------------------------------------------------------
missing=()
for module in pytest pytest_asyncio httpx grpc google.protobuf jsonschema jinja2; do
  "$PYTHON" -c "import $module" 2>/dev/null || missing+=("$module")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "run-tck: $PYTHON cannot import: ${missing[*]}. On Debian:" >&2
  echo "  apt-get install -y python3-pytest python3-pytest-asyncio python3-httpx python3-grpcio python3-protobuf python3-jsonschema python3-jinja2 protobuf-compiler" >&2
  exit 1
fi
PYPATH="$HERE"
if ! "$PYTHON" -c 'import google.api.annotations_pb2, google.api.client_pb2, google.api.field_behavior_pb2, google.rpc.status_pb2, google.rpc.error_details_pb2' 2>/dev/null; then
  # Debian packages no googleapis-common-protos: compile the few the kit imports.
  if [[ -z ${GOOGLEAPIS_DIR:-} || ! -f ${GOOGLEAPIS_DIR:-}/google/api/annotations.proto ]]; then
    echo "run-tck: python has no google.api / google.rpc protos; set GOOGLEAPIS_DIR to a checkout of" >&2
    echo "  https://github.com/googleapis/googleapis (git clone --depth 1 …) to compile them with protoc" >&2
    exit 1
  fi
  command -v protoc >/dev/null || { echo "run-tck: protoc not found (apt-get install -y protobuf-compiler)" >&2; exit 1; }
  mkdir -p "$WORK/python"
  (cd "$GOOGLEAPIS_DIR" && protoc -I. -I/usr/include --python_out="$WORK/python" \
    google/api/annotations.proto google/api/http.proto google/api/client.proto \
    google/api/field_behavior.proto google/api/launch_stage.proto \
    google/rpc/status.proto google/rpc/error_details.proto)
  PYPATH="$PYPATH:$WORK/python"
fi

# --- the system under test ------------------------------------------------------------------------
# Prints a loopback port whose next $1 - 1 ports are free too.
free_ports() {
  "$PYTHON" - "$1" <<'EOF'
import random, socket, sys
count = int(sys.argv[1])
for _ in range(200):
    base = random.randint(20000, 60000)
    socks = []
    try:
        for port in range(base, base + count):
            s = socket.socket()
            socks.append(s)
            s.bind(("127.0.0.1", port))
        print(base)
        break
    except OSError:
        pass
    finally:
        for s in socks:
            s.close()
else:
    raise SystemExit(f"no {count} free ports in a row")
EOF
}

if [[ -n $REFERENCE ]]; then
  PORT="$(free_ports 1)"
  echo "Starting the SDK reference agent on 127.0.0.1:$PORT…"
  setsid node "$HERE/reference-server.mjs" "$PORT" >"$WORK/sut.log" 2>&1 </dev/null &
  SUT_PID=$!
  SUT_URL="http://127.0.0.1:$PORT"
  for _ in $(seq 1 60); do
    "$PYTHON" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
      "$SUT_URL/.well-known/agent-card.json" 2>/dev/null && break
    kill -0 "$SUT_PID" 2>/dev/null || { echo "run-tck: the reference agent stopped:" >&2; cat "$WORK/sut.log" >&2; exit 1; }
    sleep 0.5
  done
elif [[ -z $SUT_URL ]]; then
  # The supervisor takes PORT, the three workers PORT+1..PORT+3.
  PORT="$(free_ports 4)"
  mkdir -p "$WORK/run"
  echo "${REDIS_URL:-redis://127.0.0.1:6379}" >"$WORK/redis-url"
  echo "Starting switchboard dev (supervisor on 127.0.0.1:$PORT, namespace $NAMESPACE)…"
  (
    cd "$WORK/run"
    export PATH="$ROOT/node_modules/.bin:$PATH"
    SWITCHBOARD_RATE_LIMIT_PER_MIN=0 SWITCHBOARD_MAX_TASKS_IN_FLIGHT=0 SWITCHBOARD_MAX_OPEN_STREAMS=0 \
      exec setsid node "$ROOT/packages/cli/bin/switchboard.mjs" dev --port "$PORT" --namespace "$NAMESPACE"
  ) >"$WORK/sut.log" 2>&1 </dev/null &
  SUT_PID=$!
  for _ in $(seq 1 360); do
    [[ -f $WORK/run/.switchboard/dev.json ]] && break
    kill -0 "$SUT_PID" 2>/dev/null || { echo "run-tck: switchboard dev stopped:" >&2; tail -30 "$WORK/sut.log" >&2; exit 1; }
    sleep 0.5
  done
  [[ -f $WORK/run/.switchboard/dev.json ]] || { echo "run-tck: switchboard dev did not start in 180 s:" >&2; tail -30 "$WORK/sut.log" >&2; exit 1; }
  SUT_URL="$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["supervisorUrl"])' "$WORK/run/.switchboard/dev.json")"
  TCK_SUT_TOKEN="$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["token"])' "$WORK/run/.switchboard/dev.json")"
  export TCK_SUT_TOKEN
fi
"$PYTHON" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=10).read()' \
  "$SUT_URL/.well-known/agent-card.json" || { echo "run-tck: no agent card at $SUT_URL" >&2; exit 1; }

# --- the kit --------------------------------------------------------------------------------------
export TCK_SUT_ORIGIN="$SUT_URL"
export TCK_CARD_A2A_VERSION="$CARD_VERSION"
export PYTHONPATH="$PYPATH${PYTHONPATH:+:$PYTHONPATH}"
CARD_FETCH="with no A2A-Version header"
[[ -z $CARD_VERSION ]] || CARD_FETCH="with A2A-Version: $CARD_VERSION"
echo "Running the kit ($(git -C "$TCK" rev-parse --short HEAD 2>/dev/null || echo '?')) against $SUT_URL, card fetched $CARD_FETCH…"
(
  cd "$TCK"
  # The kit's own pytest settings ask for pytest 8; Debian 12 has 7.2, so ours replace them.
  exec "$PYTHON" -m pytest tests/compatibility/ -c "$HERE/pytest.ini" --rootdir "$TCK" -p tck_plugin \
    --sut-host="$SUT_URL" --tb=short -q -rfE -p no:cacheprovider \
    --compatibility-report="$REPORTS/compatibility" --junitxml="$REPORTS/junitreport.xml" "$@"
) >"$REPORTS/tck.log" 2>&1 </dev/null &
KIT_PID=$!
# In the background and waited for, so that a signal stops the run at once (the trap ends the kit).
KIT_STATUS=0
wait "$KIT_PID" || KIT_STATUS=$?
KIT_PID=""
tail -1 "$REPORTS/tck.log"
# pytest: 0 all passed, 1 some failed; anything else means the kit could not run.
if [[ $KIT_STATUS -gt 1 ]]; then
  tail -20 "$REPORTS/tck.log" >&2
  echo "run-tck: the kit exited $KIT_STATUS (see $REPORTS/tck.log)" >&2
  exit "$KIT_STATUS"
fi
# Passes when every failure is one of expected-failures.txt (each listed there with its cause).
set +e
"$PYTHON" "$HERE/tck_counts.py" "$REPORTS/junitreport.xml" "$HERE/expected-failures.txt"
COUNT_STATUS=$?
set -e
echo "Reports and the full log: $REPORTS"
exit "$COUNT_STATUS"
