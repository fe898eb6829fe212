#!/usr/bin/env bash
# Make sure Debian's Chromium is installed, and its headless shell, which the Playwright
# browser tests run (tests/browser/conftest.py: the same build without its windowing, about
# 30% cheaper), with CJK fonts so that screenshots of the Japanese and Chinese pages can be
# read, node, which runs static/js/verify.js against the Python reference
# (tests/js/test_verify_js.py), and gettext, whose xgettext the untranslated-message check
# extracts the site's messages with (tests/test_locale.py).
set -euo pipefail
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v chromium-headless-shell >/dev/null || missing+=(chromium-headless-shell)
[ -d /usr/share/fonts/opentype/noto ] || missing+=(fonts-noto-cjk)
command -v node >/dev/null || missing+=(nodejs)
command -v xgettext >/dev/null || missing+=(gettext)
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq "${missing[@]}" >/dev/null
fi
echo "browser: $(chromium --version)"
echo "browser for the tests: $(chromium-headless-shell --version)"
echo "node: $(node --version)"
