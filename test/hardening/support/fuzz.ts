/**
 * Shared settings of the fuzz suites. CI runs a fixed seed at scale 1 (well within two
 * minutes); `FUZZ_LONG=1` scales every entry point up so the whole suite generates over one million
 * inputs; `FUZZ_SEED` replays a failure; `FUZZ_SCALE` sets the scale directly.
 */
import fc from 'fast-check'

export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261121)
export const FUZZ_SCALE = Number(process.env.FUZZ_SCALE ?? (process.env.FUZZ_LONG === '1' ? 40 : 1))

/** How many inputs an entry point gets: its CI count times the scale. */
export const runs = (ciRuns: number) => Math.max(1, Math.round(ciRuns * FUZZ_SCALE))

/** Inputs tried per entry point, printed at the end of each suite for the closing note. */
export const tried: Record<string, number> = {}
export const count = (entryPoint: string): void => {
  tried[entryPoint] = (tried[entryPoint] ?? 0) + 1
}

export function report(suite: string): void {
  const total = Object.values(tried).reduce((a, b) => a + b, 0)
  process.stdout.write(`fuzz ${suite} (seed ${FUZZ_SEED}, scale ${FUZZ_SCALE}): ${total} inputs ${JSON.stringify(tried)}\n`)
}

export const settings = (ciRuns: number): fc.Parameters<unknown> => ({ seed: FUZZ_SEED, numRuns: runs(ciRuns), endOnFailure: true })

/** Text as users and attackers type it: any code points, digits with separators, and lookalikes. */
export const hostileText = (maxLength = 40) =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: fc.constantFrom(...'0123456789 -./\t\u00a0\u200b\uff10'.split('')), maxLength }),
    fc.stringMatching(/^[0-9]{0,25}$/),
  )

/** JSON values, nested, with a card number hidden somewhere among them. */
export const jsonWith = (secret: string) =>
  fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant(secret),
      fc.string({ maxLength: 20 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(
        fc.oneof(
          fc.string({ maxLength: 12 }),
          // A card number as a field name: a refusal that names unknown keys must not repeat it.
          fc.constant(secret),
          fc.constantFrom(
            'amount',
            'value',
            'currency',
            'paymentMethod',
            'type',
            'jwe',
            'reference',
            'orderId',
            '__proto__',
            'constructor',
          ),
        ),
        tie('value'),
        { maxKeys: 6 },
      ),
    ),
  })).value
