#!/usr/bin/env bash
# Runs the whole suite (`pnpm test`) with the clock of every process moved ahead: Node, Chromium
# and the servers they start, through libfaketime (Debian's `faketime`). The suite must pass on
# any date; this shows it for one date years ahead.
#   bash scripts/test-clock-ahead.sh                 five years and one month ahead of now
#   bash scripts/test-clock-ahead.sh '2049-07-01 23:59:30'
set -euo pipefail
cd "$(dirname "$0")/.."
command -v faketime >/dev/null || { echo "test-clock-ahead: faketime missing; run: bash scripts/setup.sh --tests" >&2; exit 1; }
# Local time, as faketime reads it; the clock keeps running from that moment.
at="${1:-$(date -d '+5 years +1 month' '+%Y-%m-%d %H:%M:%S')}"
echo "test-clock-ahead: pnpm test with the clock at $at, running from there"
# Firefox and WebKitGTK do not start under libfaketime (no window, no WebDriver endpoint, for any of
# its modes); this pass runs the browser suites in Chromium, the real-clock pass in all three.
echo "test-clock-ahead: browser engines in this pass: Chromium (Firefox and WebKit do not start under libfaketime)"
# A Deno spawned from a process under libfaketime now and then exits 1 silently: the JWE-per-runtime
# interop test keeps Node here (card-jwe's suite still runs in Deno and Bun in this pass).
echo "test-clock-ahead: JWEs made per runtime in this pass: Node (Deno under libfaketime sometimes exits 1 silently)"
CARD_JWE_ENGINES=chromium CARD_JWE_RUNTIMES=node faketime "$at" pnpm test
