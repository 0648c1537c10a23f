import * as z from 'zod'

/**
 * A string matching `pattern`, whose refusal is `rule`: words a developer can act on, where zod's
 * `regex()` says only "format:regex". `rule` is fixed text, so it never carries the value.
 */
export function stringMatching(pattern: RegExp, rule: string) {
  // Without g and y: a RegExp with either keeps lastIndex, and the same text would pass every other time.
  const stateless = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''))
  return z.string().refine((text) => stateless.test(text), { message: rule })
}
