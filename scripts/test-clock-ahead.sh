#!/usr/bin/env bash
# Runs the whole suite (`pnpm test`) with the clock of every process moved ahead: Node, Chromium
# and the servers they start, through libfaketime (Debian's `faketime`). The suite must pass on
# any date; this shows it for one date years ahead.
#   bash scripts/test-clock-ahead.sh                 five years and one month ahead of now
#   bash scripts/test-clock-ahead.sh '2049-07-01 23:59:30'
# What cannot run reliably under libfaketime the suite leaves out by itself, and its summary says
# so (test/support/faketime.ts): Firefox and WebKit (they do not start), Deno (it now and then
# exits 1 after passing). They run in the real-clock pass.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v faketime >/dev/null || { echo "test-clock-ahead: faketime missing; run: bash scripts/setup.sh --tests" >&2; exit 1; }
# Local time, as faketime reads it; the clock keeps running from that moment.
at="${1:-$(date -d '+5 years +1 month' '+%Y-%m-%d %H:%M:%S')}"
echo "test-clock-ahead: pnpm test with the clock at $at, running from there; left out of this pass: Firefox, WebKit, Deno"
faketime "$at" pnpm test
