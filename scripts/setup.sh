#!/usr/bin/env bash
# Sets up a fresh machine of this kind (Node >= 20.19 and npm on Debian, as root):
#   bash scripts/setup.sh          pnpm and the workspace: enough for the CLI and the demo
#   bash scripts/setup.sh --tests  also the browsers the suite runs in (Debian's Chromium, Firefox ESR,
#                                  WebKitGTK's WebDriver with Xvfb), the independent JOSE peers the
#                                  tests use, and faketime (the suite is also run with the clock years ahead)
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v pnpm >/dev/null 2>&1; then
  echo "setup: installing pnpm 12 with npm"
  npm install --global --no-fund --no-audit pnpm@12 >/dev/null
fi

if [ "${1:-}" = "--tests" ]; then
  missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  [ -x /usr/bin/firefox-esr ] || missing+=(firefox-esr)
  [ -x /usr/bin/WebKitWebDriver ] || missing+=(webkit2gtk-driver)
  command -v xvfb-run >/dev/null 2>&1 || missing+=(xvfb xauth)
  # Debian's interpreter, which is where the python3-* packages live.
  /usr/bin/python3 -c 'import jwcrypto' 2>/dev/null || missing+=(python3-jwcrypto)
  /usr/bin/python3 -c 'import authlib' 2>/dev/null || missing+=(python3-authlib)
  /usr/bin/perl -MCrypt::JWT -e 1 2>/dev/null || missing+=(libcrypt-jwt-perl)
  command -v faketime >/dev/null 2>&1 || missing+=(faketime)
  # A real PostgreSQL server for the shop back end's PostgreSQL store (any major Debian ships;
  # the tests start it themselves as an unprivileged user and print the version they ran against).
  compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || missing+=(postgresql)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    if [ "$(id -u)" -ne 0 ]; then
      echo "setup: need root (or sudo) to run: apt-get install -y ${missing[*]}" >&2
      exit 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

# better-sqlite3 (the sandbox's database) builds from source: no prebuilt binary can be fetched
# here. node-gyp must use the machine's Node headers instead of downloading them.
if [ -z "${npm_config_nodedir:-}" ]; then
  nodedir=$(npm config get nodedir 2>/dev/null || true)
  if [ -n "$nodedir" ] && [ "$nodedir" != "undefined" ] && [ -d "$nodedir/include/node" ]; then
    export npm_config_nodedir="$nodedir"
  elif [ -d /usr/include/node ]; then
    export npm_config_nodedir=/usr
  fi
fi

pnpm install --frozen-lockfile
# The CLI (pnpm exec card-jwe) runs from the built packages.
pnpm build
