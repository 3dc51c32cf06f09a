# Sourced by the scripts: puts Node 24 and yarn 1.22.22 first on PATH (installing them into
# .tools/ from the npm registry when the machine's are older), then installs what is missing.
# Quick when everything is already there.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLS="$ROOT/.tools"
NODE_MAJOR=24
YARN_VERSION=1.22.22

log() { printf '\033[1m[os-upgrades]\033[0m %s\n' "$*" >&2; }

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

ensure_node() {
  export PATH="$TOOLS/node/bin:$PATH"
  if [ "$(node_major)" -lt "$NODE_MAJOR" ]; then
    log "installing Node $NODE_MAJOR into .tools/node (found $(node --version 2>/dev/null || echo none))"
    npm install --global --no-audit --no-fund --prefix "$TOOLS/node" "node@$NODE_MAJOR" >&2
    hash -r
  fi
  [ "$(node_major)" -ge "$NODE_MAJOR" ] || { log "Node $NODE_MAJOR is required"; exit 1; }
}

ensure_yarn() {
  export PATH="$TOOLS/yarn/bin:$PATH"
  if [ "$(yarn --version 2>/dev/null)" != "$YARN_VERSION" ]; then
    log "installing yarn $YARN_VERSION into .tools/yarn"
    npm install --global --no-audit --no-fund --prefix "$TOOLS/yarn" "yarn@$YARN_VERSION" >&2
    hash -r
  fi
}

# yarn writes node_modules/.yarn-integrity on success: reinstall only when the lock or manifests are newer.
ensure_deps() {
  local stamp="$ROOT/node_modules/.yarn-integrity"
  if [ ! -f "$stamp" ] || [ "$ROOT/yarn.lock" -nt "$stamp" ] || [ "$ROOT/package.json" -nt "$stamp" ]; then
    log "installing dependencies (yarn install --frozen-lockfile)"
    (cd "$ROOT" && yarn install --frozen-lockfile --non-interactive --network-timeout 600000) >&2
  fi
}

# Installs Debian packages (as root, or through sudo).
apt_install() {
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
  else
    sudo apt-get update -qq >&2 && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
  fi
}

# The browser the tests use, and a CJK font so the zh-hans pages draw their glyphs, not boxes.
ensure_chromium() {
  if [ ! -x /usr/bin/chromium ]; then
    log "installing Debian's chromium"
    apt_install chromium
  fi
  if ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; then
    log "installing Debian's fonts-noto-cjk"
    apt_install fonts-noto-cjk
  fi
}

ensure_toolchain() {
  ensure_node
  ensure_yarn
  ensure_deps
}
