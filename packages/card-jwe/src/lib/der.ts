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

/** The universal tags a certificate's outline uses (a TypeScript enum, so bundlers inline it). */
export enum Tag {
  Integer = 0x02,
  BitString = 0x03,
  Oid = 0x06,
  UtcTime = 0x17,
  GeneralizedTime = 0x18,
  Sequence = 0x30,
  Context0 = 0xa0,
}

export function readTlv(bytes: Uint8Array, start: number, limit = bytes.length): Tlv {
  let length = bytes[start + 1] ?? -1
  let contentStart = start + 2
  // Long form: 0x81-0x83 length bytes. 0x80 is BER's indefinite form; more than three is not a certificate.
  if (length > 0x80 && length < 0x84) {
    const count = length - 0x80
    length = 0
    for (let i = 0; i < count; i++) length = length * 256 + (bytes[contentStart++] ?? NaN)
  } else if (length >= 0x80) {
    length = NaN
  }
  const end = contentStart + length
  if (!(end <= limit)) throw new DerError('truncated or bad length')
  return { tag: bytes[start]!, start, contentStart, end }
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
