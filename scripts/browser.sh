#!/usr/bin/env bash
# Make sure Debian's Chromium is installed for the Playwright browser tests.
set -euo pipefail
if ! command -v chromium >/dev/null; then
  as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq chromium >/dev/null
fi
echo "browser: $(chromium --version)"
