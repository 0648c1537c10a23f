/**
 * The few DER (ITU-T X.690) reads a certificate needs: one tag-length-value at a time, definite
 * lengths only (DER forbids indefinite ones), every length checked against the bytes at hand.
 */
export interface Tlv {
  readonly tag: number
  /** Offset of the tag byte. */
  readonly start: number
  /** Offset of the first content byte. */
  readonly contentStart: number
  /** Offset just past the content. */
  readonly end: number
}

export class DerError extends Error {}

export function readTlv(bytes: Uint8Array, start: number, limit = bytes.length): Tlv {
  if (start + 2 > limit) throw new DerError('truncated')
  const tag = bytes[start]!
  // Multi-byte tags (low five bits all set) never occur in the certificate fields we read.
  if ((tag & 0x1f) === 0x1f) throw new DerError('unsupported tag')
  let length = bytes[start + 1]!
  let contentStart = start + 2
  if (length & 0x80) {
    const count = length & 0x7f
    // 0x80 is BER's indefinite form; four length bytes are far beyond any certificate.
    if (count === 0 || count > 3) throw new DerError('unsupported length')
    if (contentStart + count > limit) throw new DerError('truncated')
    length = 0
    for (let i = 0; i < count; i++) length = length * 256 + bytes[contentStart + i]!
    contentStart += count
  }
  const end = contentStart + length
  if (end > limit) throw new DerError('truncated')
  return { tag, start, contentStart, end }
}

/** The TLVs directly inside a constructed one. */
export function childrenOf(bytes: Uint8Array, parent: Tlv): Tlv[] {
  const children: Tlv[] = []
  for (let at = parent.contentStart; at < parent.end; ) {
    const child = readTlv(bytes, at, parent.end)
    children.push(child)
    at = child.end
  }
  return children
}

export const TAG = Object.freeze({
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OID: 0x06,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  CONTEXT_0: 0xa0,
})
