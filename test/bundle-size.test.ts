/**
 * Bundle weight is deterministic (same sources, same bytes), so the budgets are tests: a change
 * that makes card-jwe's browser entry heavier than its budget, or pulls a server-side package into
 * it, fails here. `pnpm size` prints the same numbers as a table.
 */
import { beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error -- a plain .mjs script without type declarations
import { BROWSER_ENTRIES, FORBIDDEN_IN_BROWSER, measure } from '../scripts/bundle-size.mjs'

interface Measured {
  minified: number
  gzip: number
  inputs: string[]
}
const entries = BROWSER_ENTRIES as Record<string, { entry: string | { contents: string; resolveDir: string }; gzipBudget: number }>

describe.each(Object.entries(entries))('browser entry %s', (name, { entry, gzipBudget }) => {
  let size: Measured
  beforeAll(async () => {
    size = (await measure(entry)) as Measured
  })

  it(`stays within ${gzipBudget} bytes gzip`, () => {
    console.info(`${name}: ${size.minified} B minified, ${size.gzip} B gzip (budget ${gzipBudget})`)
    expect(size.gzip).toBeLessThanOrEqual(gzipBudget)
  })

  it('contains nothing server-side', () => {
    if (name.includes('card-jwe')) expect(size.inputs.some((i) => i.includes('node_modules/jose/'))).toBe(true)
    for (const forbidden of FORBIDDEN_IN_BROWSER as string[]) {
      expect(
        size.inputs.filter((i) => i.includes(forbidden)),
        forbidden,
      ).toEqual([])
    }
  })
})
