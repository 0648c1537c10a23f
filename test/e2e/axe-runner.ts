/**
 * axe-core in a shopper's browser of any engine: its source run in the page as the driver's own
 * script (the page's CSP allows no test script), then `axe.run` with the WCAG 2.2 A and AA rules.
 * Returns each violation's rule, impact and targets (CSS selectors): never the page's HTML, so no
 * field value can reach a test's output.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { ShopperBrowser } from './shopper-browsers.ts'

const AXE_SOURCE = readFileSync(join(dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js'), 'utf8')

/** One rule broken, where. */
export interface AxeViolation {
  readonly id: string
  readonly impact: 'minor' | 'moderate' | 'serious' | 'critical' | null
  readonly targets: readonly string[]
}

/** The rules that fail a test: a shopper on assistive technology is blocked or badly hindered. */
export const BLOCKING: ReadonlySet<AxeViolation['impact']> = new Set(['serious', 'critical'])

/** axe-core's violations of the page as it is now. The challenge frame's own page is the bank's: only its element is judged. */
export async function runAxe(shopper: ShopperBrowser): Promise<AxeViolation[]> {
  if (!(await shopper.evaluate(() => 'axe' in window))) await shopper.runScript(AXE_SOURCE)
  return shopper.evaluate(() => {
    type Results = { violations: Array<{ id: string; impact: AxeViolation['impact']; nodes: Array<{ target: unknown[] }> }> }
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<Results> } }).axe
    return axe
      .run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
        resultTypes: ['violations'],
        iframes: false,
      })
      .then((results) =>
        results.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((node) => node.target.join(' ')) })),
      )
  })
}

/** Violations counted by impact, for the run's record: `{ serious: 1, minor: 2 }`. */
export function byImpact(violations: readonly AxeViolation[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const v of violations) counts[v.impact ?? 'none'] = (counts[v.impact ?? 'none'] ?? 0) + v.targets.length
  return counts
}
