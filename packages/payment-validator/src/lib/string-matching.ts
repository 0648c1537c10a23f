import * as z from 'zod'

/**
 * A string matching `pattern`, whose refusal is `rule`: words a developer can act on, where zod's
 * `regex()` says only "format:regex". `rule` is fixed text, so it never carries the value.
 */
export const stringMatching = (pattern: RegExp, rule: string) => z.string().refine((text) => pattern.test(text), { message: rule })
