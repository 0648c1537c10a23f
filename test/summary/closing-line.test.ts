/**
 * `pnpm test`'s closing line counts as failed what failed outside a test: a file that does not
 * load, an unhandled error, a runtime that exits non-zero. Real vitest runs of small fixture files,
 * through the suite's own reporter.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { closingLine, combineRuns, type RunSummary } from '../../scripts/lib/test-summary.mjs'

const root = fileURLToPath(new URL('../../', import.meta.url))

function runFixtures(files: readonly string[]): { status: number | null; output: string; summary: RunSummary } {
  const summaryFile = join(mkdtempSync(join(tmpdir(), 'closing-line-')), 'summary.json')
  const run = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/summary/fixtures/vitest.config.ts'],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, FIXTURE_FILES: files.join(','), CARD_JWE_SUMMARY_FILE: summaryFile, FORCE_COLOR: '0' },
    },
  )
  return { status: run.status, output: run.stdout + run.stderr, summary: JSON.parse(readFileSync(summaryFile, 'utf8')) }
}

const totalOf = (summary: RunSummary) => closingLine(combineRuns([{ label: 'vitest (node)', exitCode: 0, summary }]).total)

describe('the closing line', () => {
  it('counts passing tests as passed', { timeout: 60_000 }, () => {
    const run = runFixtures(['passes.fixture.ts'])
    expect(run.status).toBe(0)
    expect(totalOf(run.summary)).toBe('tests: 1 passed, 0 failed, 0 skipped')
    expect(run.output).toMatch(/^this run \(node\): 1 passed, 0 failed, 0 skipped$/m)
  })

  it('counts a test file that fails to load as failed, and names it', { timeout: 60_000 }, () => {
    const run = runFixtures(['passes.fixture.ts', 'fails-to-load.fixture.ts'])
    expect(run.status).not.toBe(0)
    expect(totalOf(run.summary)).toBe('tests: 1 passed, 1 failed, 0 skipped')
    expect(run.summary.problems.join('\n')).toMatch(/fails-to-load\.fixture\.ts failed outside its tests/)
  })

  it('names each failed test with its file and the first line of its error', { timeout: 60_000 }, () => {
    const run = runFixtures(['passes.fixture.ts', 'fails.fixture.ts'])
    expect(run.status).not.toBe(0)
    const { lines } = combineRuns([{ label: 'vitest (node)', exitCode: 1, summary: run.summary }])
    expect(lines).toContainEqual(
      expect.stringMatching(/^ {2}failed: \S+: fails\.fixture\.ts > sums > adds wrongly: AssertionError: the sum/),
    )
    expect(run.output).toMatch(/^ {2}failed: .*fails\.fixture\.ts > sums > adds wrongly/m)
  })

  it('counts an unhandled error as failed', { timeout: 60_000 }, () => {
    const run = runFixtures(['passes.fixture.ts', 'unhandled-error.fixture.ts'])
    expect(run.status).not.toBe(0)
    expect(totalOf(run.summary)).toBe('tests: 2 passed, 1 failed, 0 skipped')
    expect(run.summary.problems.join('\n')).toMatch(/unhandled error: Error: thrown from a timer/)
  })

  it('counts a runtime that exits non-zero after passing as failed', () => {
    const passed: RunSummary = { projects: { 'card-jwe:deno': { passed: 100, failed: 0, skipped: 0 } }, problems: [] }
    const { lines, total } = combineRuns([
      {
        label: 'vitest (node)',
        exitCode: 0,
        summary: { projects: { 'card-jwe:node': { passed: 100, failed: 0, skipped: 0 } }, problems: [] },
      },
      { label: 'vitest (deno)', exitCode: 1, summary: passed },
      { label: 'vitest (bun)', exitCode: null, summary: undefined },
    ])
    expect(closingLine(total)).toBe('tests: 200 passed, 2 failed, 0 skipped')
    expect(lines).toContain('  counted as failed: vitest (deno) exited 1 with no failed test')
    expect(lines).toContain('  counted as failed: vitest (bun) exited on a signal before it reported')
  })

  it('does not count a run twice when its failed tests explain its exit code', () => {
    const failedOne: RunSummary = { projects: { 'card-jwe:bun': { passed: 99, failed: 1, skipped: 0 } }, problems: [] }
    expect(closingLine(combineRuns([{ label: 'vitest (bun)', exitCode: 1, summary: failedOne }]).total)).toBe(
      'tests: 99 passed, 1 failed, 0 skipped',
    )
  })
})
