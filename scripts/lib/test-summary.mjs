/**
 * The counting behind `pnpm test`'s closing line, "tests: N passed, N failed, N skipped", which CI
 * and people read without knowing vitest. A line that says 0 failed for a run that failed is worse
 * than none, so three things count as failures beside failed tests: a test file that fails outside
 * its tests (it does not load, or a hook throws), an unhandled error, and a run (Node, Deno, Bun)
 * that exits non-zero with no failed test to show for it.
 */

/** @typedef {{ passed: number, failed: number, skipped: number }} Counts */
/** @typedef {{ projects: Record<string, Counts>, problems: string[], failedTests?: string[] }} RunSummary */

const zero = () => ({ passed: 0, failed: 0, skipped: 0 })

/**
 * One vitest run's counts per project, from the reporter's test modules.
 * @param {ReadonlyArray<{ project: string, file: string, failedOutsideTests: string | undefined, states: readonly string[],
 *   failures?: ReadonlyArray<{ name: string, error: string }> }>} modules
 * @param {readonly string[]} unhandledErrors messages of errors vitest caught outside any test
 * @param {string | undefined} interrupted why the run ended early, if it did
 * @returns {RunSummary}
 */
export function countRun(modules, unhandledErrors, interrupted) {
  /** @type {Record<string, Counts>} */
  const projects = {}
  const problems = []
  const failedTests = []
  for (const module of modules) {
    projects[module.project] ??= zero()
    const counts = projects[module.project]
    for (const state of module.states) {
      if (state === 'passed' || state === 'failed') counts[state]++
      else counts.skipped++
    }
    // Named, so a run whose log shows only its tail still says which test failed and why.
    for (const failure of module.failures ?? []) failedTests.push(`${module.project}: ${module.file} > ${failure.name}: ${failure.error}`)
    if (module.failedOutsideTests !== undefined && !module.states.includes('failed')) {
      counts.failed++
      problems.push(`${module.project}: ${module.file} failed outside its tests: ${module.failedOutsideTests}`)
    }
  }
  for (const message of unhandledErrors) {
    projects['unhandled errors'] ??= zero()
    projects['unhandled errors'].failed++
    problems.push(`unhandled error: ${message}`)
  }
  if (interrupted) {
    projects.run ??= zero()
    projects.run.failed++
    problems.push(`the run was ${interrupted}`)
  }
  return { projects, problems, failedTests }
}

/**
 * Every run of `pnpm test` in one summary.
 * @param {ReadonlyArray<{ label: string, exitCode: number | null, summary: RunSummary | undefined }>} runs
 * @returns {{ lines: string[], total: Counts }}
 */
export function combineRuns(runs) {
  /** @type {Map<string, Counts>} */
  const perProject = new Map()
  const problems = []
  const failedTests = []
  for (const run of runs) {
    const summary = run.summary ?? { projects: {}, problems: [] }
    let failed = 0
    for (const [name, counts] of Object.entries(summary.projects)) {
      const sum = perProject.get(name) ?? zero()
      sum.passed += counts.passed
      sum.failed += counts.failed
      sum.skipped += counts.skipped
      perProject.set(name, sum)
      failed += counts.failed
    }
    problems.push(...summary.problems)
    failedTests.push(...(summary.failedTests ?? []))
    if (run.exitCode !== 0 && failed === 0) {
      const sum = perProject.get(run.label) ?? zero()
      sum.failed++
      perProject.set(run.label, sum)
      problems.push(`${run.label} exited ${run.exitCode ?? 'on a signal'}${run.summary ? ' with no failed test' : ' before it reported'}`)
    }
  }
  const total = zero()
  const lines = [...perProject.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, c]) => {
      total.passed += c.passed
      total.failed += c.failed
      total.skipped += c.skipped
      return `  ${name}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`
    })
  const named = [...failedTests.map((t) => `  failed: ${t}`), ...problems.map((p) => `  counted as failed: ${p}`)]
  return { lines: [...lines, ...named], total }
}

/** @param {Counts} total */
export const closingLine = (total) => `tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`
