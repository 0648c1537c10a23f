import { describe, expect, it } from 'vitest'
import * as noble from '../src/lib/hashes.js'
import * as node from '../src/node/hashes.js'

// Texts where UTF-8 encoders could disagree: empty, non-ASCII, astral, and lone surrogates (both give U+FFFD).
const TEXTS = ['', 'abc', 'crème brûlée €', '😀 payment', 'lone \ud800 high', 'lone \udc00 low', 'x'.repeat(1500)]

describe('the two hash builds (node:crypto on Node, @noble/hashes elsewhere) give the same digests', () => {
  it('SHA-256 hex of texts and of bytes, views included', () => {
    // Known answer (FIPS 180-2, "abc") so both cannot be wrong together.
    expect(node.sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    for (const text of TEXTS) expect(node.sha256Hex(text)).toBe(noble.sha256Hex(text))
    const bytes = new TextEncoder().encode('0123456789abcdef')
    for (const view of [bytes, bytes.subarray(3, 11), new Uint8Array(0)]) expect(node.sha256Hex(view)).toBe(noble.sha256Hex(view))
  })

  it('HMAC-SHA256 hex with the same keys and messages', () => {
    // RFC 4231, test case 2: key "Jefe".
    expect(node.hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    )
    for (const key of ['', 'Jefe', 'k\ud800', 'secret-'.repeat(20)])
      for (const message of TEXTS) expect(node.hmacSha256Hex(key, message)).toBe(noble.hmacSha256Hex(key, message))
  })
})
