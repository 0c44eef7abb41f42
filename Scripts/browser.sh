#!/usr/bin/env bash
# A real browser for the web client's and the viewer's tests and benchmarks:
# Debian's Chromium, driven by Python's Playwright (from PyPI, in a virtual
# environment of its own) with the system browser, as Playwright cannot
# download its own browsers here.
#
#   bash Scripts/browser.sh install     # installs what is missing; prints nothing on stdout
#   bash Scripts/browser.sh python      # prints the Python that imports playwright
#   bash Scripts/browser.sh chromium    # prints the Chromium executable
#
# install   apt-get install chromium when no Chromium is found; a virtual
#           environment with playwright in TESSERA_BROWSER_VENV (default
#           ~/.cache/tessera/browser-venv) when it cannot import playwright.
#           Tests running at once install once (under a lock).
# python    exits 1 when install has not been run.
# chromium  exits 1 when none is found. TESSERA_CHROMIUM names it when the
#           search (chromium, chromium-browser on PATH) is wrong.
#
# Run as root, Chromium needs --no-sandbox; the tests pass it then.
set -euo pipefail

PROG=browser.sh
VENV=${TESSERA_BROWSER_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/tessera/browser-venv}
PLAYWRIGHT_VERSION=${TESSERA_PLAYWRIGHT_VERSION:-1.65.2}

say() { printf '%s: %s\n' "$PROG" "$*" >&2; }

chromium_path() {
    if [ -n "${TESSERA_CHROMIUM:-}" ]; then
        [ -x "$TESSERA_CHROMIUM" ] && { echo "$TESSERA_CHROMIUM"; return 0; }
        return 1
    fi
    command -v chromium 2>/dev/null || command -v chromium-browser 2>/dev/null
}

venv_ready() { [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import playwright.sync_api' >/dev/null 2>&1; }

install() {
    mkdir -p "$(dirname "$VENV")"
    # One installer at a time: tests that need the browser start together.
    exec 9>"$(dirname "$VENV")/browser-install.lock"
    flock -w 900 9 || { say "waited 900 s for another install"; exit 1; }
    if ! chromium_path >/dev/null; then
        say "installing chromium"
        local sudo=""
        [ "$(id -u)" = 0 ] || sudo="sudo -n"
        export DEBIAN_FRONTEND=noninteractive
        timeout 900 $sudo apt-get update -q >&2
        timeout 900 $sudo apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core >&2
    fi
    # Not `pip show | grep -q`: under pipefail, grep quitting early fails pip with SIGPIPE,
    # and a needless reinstall removes the venv under a browser that runs from it.
    if ! venv_ready || [ "$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("playwright"))' 2>/dev/null)" != "$PLAYWRIGHT_VERSION" ]; then
        say "installing playwright $PLAYWRIGHT_VERSION into $VENV"
        rm -rf "$VENV"
        python3 -m venv "$VENV" >&2
        timeout 900 "$VENV/bin/python" -m pip install -q --disable-pip-version-check "playwright==$PLAYWRIGHT_VERSION" >&2
    fi
    venv_ready || { say "playwright does not import in $VENV"; exit 1; }
    chromium_path >/dev/null || { say "no chromium after installing it"; exit 1; }
}

case "${1:-}" in
    install) install ;;
    python) venv_ready || { say "not installed: run 'bash Scripts/browser.sh install'"; exit 1; }; echo "$VENV/bin/python" ;;
    chromium) chromium_path || { say "no chromium found: run 'bash Scripts/browser.sh install'"; exit 1; } ;;
    *) say "usage: browser.sh install | python | chromium"; exit 2 ;;
esac
