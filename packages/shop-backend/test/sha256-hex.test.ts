import { describe, expect, it } from 'vitest'
import { sha256Hex as noble } from '../src/lib/sha256-hex.js'
import { sha256Hex as node } from '../src/node/sha256-hex.js'

describe('the fingerprint hash: node:crypto on Node and @noble/hashes elsewhere agree', () => {
  it('on texts where UTF-8 encoders could differ (non-ASCII, astral, lone surrogates) and on a JWE-sized one', () => {
    expect(node('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    for (const text of ['', 'abc', 'crème brûlée €', '😀', 'lone \ud800', 'lone \udc00', 'e'.repeat(1200)])
      expect(node(text)).toBe(noble(text))
  })
})
