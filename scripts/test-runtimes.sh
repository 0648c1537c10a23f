#!/usr/bin/env bash
# The suites that need no browser, in Deno and in Bun (the npm packages `deno` and `bun`, installed
# with the workspace): the same vitest projects, their workers in that runtime. `pnpm test` runs
# them after the Node run (scripts/run-tests.mjs); this runs them alone, with the same summary.
set -euo pipefail
cd "$(dirname "$0")/.."
exec node scripts/run-tests.mjs --runtimes-only
