#!/usr/bin/env node
/**
 * `pnpm test` after the type-check: the whole vitest run in Node, then the suites that must also
 * pass in Deno and Bun (vitest run by each, its workers in that runtime), then one closing summary
 * of all of them. Every run goes on even when one fails, so the summary is complete; the exit code
 * is 1 when anything failed (scripts/lib/test-summary.mjs says what counts).
 *   node scripts/run-tests.mjs                  everything
 *   node scripts/run-tests.mjs --runtimes-only  only the Deno and Bun runs
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { closingLine, combineRuns } from './lib/test-summary.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const vitest = join(root, 'node_modules/vitest/vitest.mjs')
const bin = (name) => join(root, 'test/node_modules/.bin', name)
/** The projects whose suites need no browser and must pass in every server runtime. */
const RUNTIME_PROJECTS = ['card-jwe:node', 'service-client:node', 'shop-backend-runtimes:node']
/** What a runtime's run is told: its name (a test checks it runs there), and Node for the sandbox it starts. */
const runtimeEnv = (runtime) => ({ CARD_JWE_RUNTIME: runtime, CARD_JWE_NODE: process.execPath })
/** Debian's faketime puts libfaketime in LD_PRELOAD (test/support/faketime.ts says the same). */
const underFaketime = /libfaketime/.test(process.env.LD_PRELOAD ?? '')

const summaries = mkdtempSync(join(tmpdir(), 'card-jwe-test-summary-'))
const runs = []
const leftOut = []

function run(label, command, args, env = {}) {
  const summaryFile = join(summaries, `${runs.length}.json`)
  process.stdout.write(`\n== ${label}\n`)
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env, CARD_JWE_SUMMARY_FILE: summaryFile },
  })
  if (result.error) process.stdout.write(`${label}: could not start: ${result.error.message}\n`)
  const summary = existsSync(summaryFile) ? JSON.parse(readFileSync(summaryFile, 'utf8')) : undefined
  runs.push({ label, exitCode: result.error ? 1 : result.status, summary, notRun: summary?.notRun ?? [] })
}

if (!process.argv.includes('--runtimes-only')) run('vitest (node)', process.execPath, [vitest, 'run'])

const projectArgs = RUNTIME_PROJECTS.flatMap((p) => ['--project', p])
if (underFaketime)
  leftOut.push(
    `deno: ${RUNTIME_PROJECTS.join(', ')} (a Deno under libfaketime now and then exits 1 after passing; it runs in the real-clock pass)`,
  )
else {
  // No update check: it needs the network.
  run('vitest (deno)', bin('deno'), ['run', '-A', vitest, 'run', ...projectArgs], { DENO_NO_UPDATE_CHECK: '1', ...runtimeEnv('deno') })
}
run('vitest (bun)', bin('bun'), ['--bun', vitest, 'run', ...projectArgs], runtimeEnv('bun'))
rmSync(summaries, { recursive: true, force: true })

const { lines, total } = combineRuns(runs)
const notRun = [...new Set(runs.flatMap((r) => r.notRun))]
process.stdout.write(
  ['', 'all runs, per project and runtime:', ...lines, ...notRun, ...leftOut.map((l) => `  not run in ${l}`), closingLine(total), ''].join(
    '\n',
  ),
)
process.exit(total.failed > 0 ? 1 : 0)
