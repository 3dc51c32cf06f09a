# Shared by scripts/real-stack/up and down: where the real stack keeps its builds, data and logs,
# its loopback ports, and how it builds a program from the Go modules pinned in tests/real-stack/.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
STATE=${REAL_STACK_DIR:-$ROOT/.real-stack}
BIN=$STATE/bin
RUN=$STATE/run
LOGS=$STATE/logs
MODULES=$ROOT/tests/real-stack
# 9971-9982: above the emulator's 9871 (one range per engineer on a shared machine); Fleet uses
# BASE_PORT+7 to +11 (scripts/real-stack/fleet-setup.sh).
BASE_PORT=${REAL_STACK_PORT:-9971}
ETCD_PORT=$BASE_PORT
ETCD_PEER_PORT=$((BASE_PORT + 1))
APISERVER_PORT=$((BASE_PORT + 2))
KCM_PORT=$((BASE_PORT + 3))
STEVE_HTTP_PORT=$((BASE_PORT + 4))
STEVE_HTTPS_PORT=$((BASE_PORT + 5))
KWOK_PORT=$((BASE_PORT + 6))

# Every core, niced (build): 12 minutes cold for all of it on an idle 2-core machine (README).
# REAL_STACK_GOFLAGS=-p=1 keeps a build to one core on a busy machine.
export GOPATH=$STATE/gopath GOCACHE=$STATE/gocache GOFLAGS=${REAL_STACK_GOFLAGS:--p=$(nproc)} GOTOOLCHAIN=local
export PATH=/usr/local/go/bin:$PATH
# The checksum database has no entry for these (proxy.golang.org/sumdb answers 404); go.sum pins
# the hash the module proxy served.
export GONOSUMDB=github.com/rancher/dynamiclistener

mkdir -p "$BIN" "$RUN" "$LOGS"

log() { printf '[real-stack] %s\n' "$*" >&2; }

# build NAME MODULE_DIR PACKAGE: builds PACKAGE (a tool of tests/real-stack/MODULE_DIR/go.mod) into
# $BIN/NAME unless a build from the same go.sum is there. Niced and one package at a time: the
# machine is shared.
build() {
  local name=$1 dir=$MODULES/$2 pkg=$3
  local stamp=$BIN/$name.stamp sum
  sum=$(cat "$dir/go.mod" "$dir/go.sum" | sha256sum | cut -c1-16)
  if [ -x "$BIN/$name" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ]; then
    return 0
  fi
  log "building $name ($pkg), log in $LOGS/build-$name.log"
  local start=$SECONDS
  if (cd "$dir" && nice -n 19 go build -o "$BIN/$name" "$pkg") >"$LOGS/build-$name.log" 2>&1; then
    echo "$sum" >"$stamp"
    log "built $name in $((SECONDS - start)) s"
  else
    log "building $name failed after $((SECONDS - start)) s: $(tail -3 "$LOGS/build-$name.log")"
    return 1
  fi
}

# start NAME COMMAND...: runs COMMAND in the background, its output in $LOGS/NAME.log, its pid in $RUN/NAME.pid.
start() {
  local name=$1
  shift
  # In $STATE: Steve's SQL cache writes informer_object_cache.db into its working directory.
  (cd "$STATE" && exec "$@") >"$LOGS/$name.log" 2>&1 &
  echo $! >"$RUN/$name.pid"
}

running() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

# wait_for NAME SECONDS COMMAND...: until COMMAND succeeds, or fails the stack saying which part did not come up.
wait_for() {
  local name=$1 limit=$2
  shift 2
  local i
  for ((i = 0; i < limit * 2; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    if ! running "$name"; then
      log "$name exited: $(tail -5 "$LOGS/$name.log")"
      return 1
    fi
    sleep 0.5
  done
  log "$name not ready after $limit s: $(tail -5 "$LOGS/$name.log")"
  return 1
}
