import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { MAX_LOGGED_PATH_LENGTH, redactPathForLog } from '../src/index.js'

describe('redactPathForLog', () => {
  it('removes card-length digit runs, plain, encoded or grouped, and keeps the rest readable', () => {
    expect(redactPathForLog('/redirect/5555341244441115/approve')).toBe('/redirect/[digits]/approve')
    expect(redactPathForLog('/x/%35%35%35%35%33%34%31%32%34%34%34%34%31%31%31%35')).toBe('/x/[digits]')
    expect(redactPathForLog('/x/4111 1111-1111 1111')).toBe('/x/[digits]')
    expect(redactPathForLog('/shopplatform/processor/payments/8YQ3K2M9ZX7B4N1C/captures')).toBe(
      '/shopplatform/processor/payments/8YQ3K2M9ZX7B4N1C/captures',
    )
    expect(redactPathForLog('/api/orders/12345678901')).toBe('/api/orders/12345678901') // 11 digits: not a card number
  })

  it('cannot be used to forge log lines, and stays short', () => {
    expect(redactPathForLog('/a%0A[sandbox] GET / 200')).toBe('/a?[sandbox] GET / 200')
    expect(redactPathForLog('/%E0%A4%A')).toBe('/%E0%A4%A')
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.stringMatching(/^\d{12,19}$/), (noise, number) => {
        const logged = redactPathForLog(`/${noise}/${number}/${encodeURIComponent(number)}`)
        expect(logged.length).toBeLessThanOrEqual(MAX_LOGGED_PATH_LENGTH + 1)
        expect(logged).toMatch(/^[\x20-\x7e]*…?$/)
        expect(logged.includes(number)).toBe(false)
      }),
      { seed: 20261121, numRuns: 2000 },
    )
  })
})
