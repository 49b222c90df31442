#!/bin/sh
# The browser test drives Debian's Chromium; install it when missing (as root, e.g. on CI).
set -e
command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "The browser test needs Debian's chromium: sudo apt-get install chromium" >&2
  exit 1
fi
echo "Installing Debian's chromium for the browser test…" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
