#!/usr/bin/env bash
# Install Debian's Chromium (/usr/bin/chromium) for the browser tests when it is
# missing. Playwright drives this browser; it never downloads one of its own.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "install-browser: /usr/bin/chromium is already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium
test -x /usr/bin/chromium
echo "install-browser: installed /usr/bin/chromium"
