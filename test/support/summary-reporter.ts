/**
 * Prints, after vitest's own report, the count per project and runtime, then one plain line
 * "tests: N passed, N failed, N skipped" that CI and people can read without knowing vitest.
 */
import type { Reporter, TestModule } from 'vitest/node'
import { NOT_IN_WEBKIT, PLAYWRIGHT_PROVIDER_ONLY } from './browsers.ts'

/** The server runtime this run is in: a ":node" project run by Deno or Bun is named after it. */
function runtime(): 'node' | 'deno' | 'bun' {
  if ('Deno' in globalThis) return 'deno'
  if ((process.versions as { bun?: string }).bun) return 'bun'
  return 'node'
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const perProject = new Map<string, Record<'passed' | 'failed' | 'skipped', number>>()
    for (const module of testModules) {
      const name = (module.project.name || 'root').replace(/:node$/, `:${runtime()}`)
      const counts = perProject.get(name) ?? { passed: 0, failed: 0, skipped: 0 }
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed' || state === 'failed') counts[state]++
        else counts.skipped++
      }
      perProject.set(name, counts)
    }
    const total = { passed: 0, failed: 0, skipped: 0 }
    const lines = [...perProject.entries()].sort().map(([name, c]) => {
      total.passed += c.passed
      total.failed += c.failed
      total.skipped += c.skipped
      return `  ${name}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`
    })
    // What an engine cannot run is said, not silently left out.
    const ran = (engine: string) => [...perProject.keys()].some((name) => name.endsWith(`(${engine})`))
    const notRun = [
      ...(ran('webkit') ? NOT_IN_WEBKIT.map((n) => `  not run in webkit: ${n.file} (${n.reason})`) : []),
      ...['firefox', 'webkit'].filter(ran).flatMap((engine) => PLAYWRIGHT_PROVIDER_ONLY.map((n) => `  not run in ${engine}: ${n.file} (${n.reason})`)),
    ]
    process.stdout.write(`\nper project and runtime:\n${[...lines, ...notRun].join('\n')}\ntests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`)
  }
}
