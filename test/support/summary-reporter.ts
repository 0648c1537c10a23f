/**
 * Prints, after vitest's own report, the count per project and runtime, then one plain line
 * "tests: N passed, N failed, N skipped". A file that fails outside its tests and an unhandled error
 * count as failures (scripts/lib/test-summary.mjs). Under `pnpm test` (scripts/run-tests.mjs) the
 * counts also go to CARD_JWE_SUMMARY_FILE, and the closing line of the whole run comes from there.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Reporter, SerializedError, TestModule, TestRunEndReason } from 'vitest/node'
import { closingLine, combineRuns, countRun, type ModuleRecord } from '../../scripts/lib/test-summary.mjs'
import { NOT_IN_WEBKIT, PLAYWRIGHT_PROVIDER_ONLY, wantedEngines } from './browsers.ts'
import { FAKETIME_LEFT_OUT, FAKETIME_LEFT_OUT_FILES, UNDER_FAKETIME } from './faketime.ts'
import { serverRuntime } from './runtime.ts'

const REAL_CLOCK = 'it runs in the real-clock pass'

/** The first error of a module outside its tests: a file that did not load, a hook that threw. */
function errorOutsideTests(module: TestModule): string | undefined {
  if (module.state() !== 'failed') return undefined
  const suiteErrors = [...module.children.allSuites()].flatMap((suite) => suite.errors())
  const first = [...module.errors(), ...suiteErrors][0]
  return first ? `${first.name ?? 'Error'}: ${first.message ?? ''}`.slice(0, 300) : 'the file failed'
}

/** An error's first line, short: enough to tell one failure from another in a log's tail. */
function firstLineOf(error: { name?: string; message?: string } | undefined): string {
  if (!error) return 'no error recorded'
  return `${error.name ?? 'Error'}: ${(error.message ?? '').split('\n')[0]}`.slice(0, 240)
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    const modules: ModuleRecord[] = testModules.map((module) => ({
      // A ":node" project run by Deno or Bun is named after it.
      project: (module.project.name || 'root').replace(/:node$/, `:${serverRuntime()}`),
      file: module.relativeModuleId,
      failedOutsideTests: errorOutsideTests(module),
      states: [...module.children.allTests()].map((test) => test.result().state),
      failures: [...module.children.allTests('failed')].map((test) => ({
        name: test.fullName,
        error: firstLineOf(test.result().errors?.[0]),
      })),
    }))
    const summary = countRun(
      modules,
      unhandledErrors.map((error) => `${error.name ?? 'Error'}: ${error.message ?? ''}`.slice(0, 300)),
      reason === 'interrupted' ? 'interrupted' : undefined,
    )
    const { lines, total } = combineRuns([{ label: `vitest (${serverRuntime()})`, exitCode: 0, summary }])
    // What an engine cannot run is said, not silently left out.
    const ran = (engine: string) => modules.some((m) => m.project.endsWith(`(${engine})`))
    const hasBrowsers = ran('chromium')
    const notRun = [
      ...(ran('webkit') ? NOT_IN_WEBKIT.map((n) => `  not run in webkit: ${n.file} (${n.reason})`) : []),
      ...['firefox', 'webkit']
        .filter(ran)
        .flatMap((engine) => PLAYWRIGHT_PROVIDER_ONLY.map((n) => `  not run in ${engine}: ${n.file} (${n.reason})`)),
      ...(['firefox', 'webkit'] as const)
        .filter((engine) => hasBrowsers && !wantedEngines().has(engine))
        .map((engine) => {
          const why = UNDER_FAKETIME ? `${FAKETIME_LEFT_OUT[engine]}; ${REAL_CLOCK}` : 'CARD_JWE_ENGINES'
          return `  not run in ${engine}: this run left it out (${why})`
        }),
      ...(UNDER_FAKETIME && modules.some((m) => m.project.startsWith('cross-package:'))
        ? FAKETIME_LEFT_OUT_FILES.map((f) => `  not run under libfaketime: ${f.file} (${f.reason}; ${REAL_CLOCK})`)
        : []),
    ]
    const file = process.env.CARD_JWE_SUMMARY_FILE
    if (file) {
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, JSON.stringify({ ...summary, notRun }))
    }
    // Under scripts/run-tests.mjs this is one run of several: its line is labelled, the closing line comes last.
    const label = file ? `this run (${serverRuntime()})` : 'tests'
    process.stdout.write(
      `\nper project and runtime:\n${[...lines, ...notRun].join('\n')}\n${closingLine(total).replace(/^tests/, label)}\n`,
    )
  }
}
