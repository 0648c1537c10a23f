import { describe, expect, it } from 'vitest'
import { newIdempotencyKey } from '../src/lib/idempotency-key.js'

// RFC 9562, section 5.7: 48-bit Unix ms, version 7, 12 random bits, variant 10, 62 random bits.
const UUID_V7 = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('new idempotency keys', () => {
  it('are UUIDs version 7 whose first 48 bits are the given Unix milliseconds', () => {
    const at = Date.parse('2026-11-24T12:00:00.123Z')
    const key = newIdempotencyKey(at)
    const [, high, low] = UUID_V7.exec(key) ?? []
    expect(key).toMatch(UUID_V7)
    expect(Number.parseInt(`${high}${low}`, 16)).toBe(at)
  })

  it('differ within one millisecond and sort by time across milliseconds', () => {
    const at = Date.parse('2026-11-24T12:00:00.000Z')
    const same = Array.from({ length: 10_000 }, () => newIdempotencyKey(at))
    expect(new Set(same).size).toBe(same.length)
    const later = Array.from({ length: 100 }, (_, i) => newIdempotencyKey(at + i))
    expect([...later].sort()).toEqual(later)
  })

  it('a clock outside 48 bits of milliseconds (a test clock before 1970, NaN) gives way to the real one', () => {
    const before = Date.now()
    for (const odd of [-1, Number.NaN, 2 ** 48, 1.5]) {
      const [, high, low] = UUID_V7.exec(newIdempotencyKey(odd)) ?? []
      const ms = Number.parseInt(`${high}${low}`, 16)
      expect(ms).toBeGreaterThanOrEqual(before)
      expect(ms).toBeLessThanOrEqual(Date.now())
    }
  })
})
