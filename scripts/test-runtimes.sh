#!/usr/bin/env bash
# card-jwe's suite that needs no browser, in Deno and in Bun (the npm packages `deno` and `bun`,
# installed with the workspace): the same vitest project, its workers in that runtime. The summary
# names the runtime ("card-jwe:deno: N passed, ..."). Part of `pnpm test` (issue 14).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=test/node_modules/.bin
# No update check: it needs the network, and with the clock ahead (clock-ahead pass) Deno would try.
export DENO_NO_UPDATE_CHECK=1
vitest=node_modules/vitest/vitest.mjs
"$bin/deno" --version | head -1
"$bin/deno" run -A "$vitest" run --project card-jwe:node
echo "bun $("$bin/bun" --version)"
"$bin/bun" --bun "$vitest" run --project card-jwe:node
