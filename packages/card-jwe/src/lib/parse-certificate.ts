import { childrenOf, DerError, readTlv, Tag, type Tlv } from './der.js'

/** What card-jwe needs from an X.509 certificate (RFC 5280 section 4.1). */
export interface CertificateFields {
  /** DER of SubjectPublicKeyInfo, ready for `crypto.subtle.importKey('spki', ...)`. */
  readonly spki: Uint8Array
  /** Whether the key's algorithm is rsaEncryption (1.2.840.113549.1.1.1). */
  readonly isRsaEncryptionKey: boolean
  readonly notBefore: Date
  readonly notAfter: Date
}

/** Content bytes of OID 1.2.840.113549.1.1.1 (rsaEncryption, RFC 8017 appendix A.1), comma-joined. */
const RSA_ENCRYPTION_OID = '42,134,72,134,247,13,1,1,1'

function expect(tlv: Tlv | undefined, tag: Tag): Tlv {
  if (tlv?.tag !== tag) throw new DerError('unexpected structure')
  return tlv
}

/**
 * RFC 5280 4.1.2.5: UTCTime is YYMMDDHHMMSSZ (YY >= 50 means 19YY), GeneralizedTime is
 * YYYYMMDDHHMMSSZ; both UTC, with seconds, without fractions.
 */
function parseTime(bytes: Uint8Array, tlv: Tlv | undefined): Date {
  if (tlv?.tag !== Tag.UtcTime && tlv?.tag !== Tag.GeneralizedTime) throw new DerError('bad time')
  let text = String.fromCharCode(...bytes.subarray(tlv.contentStart, tlv.end))
  if (tlv.tag === Tag.UtcTime) text = (text < '5' ? '20' : '19') + text
  const m = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/.exec(text)
  const iso = m && `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z`
  const date = new Date(iso ?? NaN)
  // An engine may roll 31 February into March; a real certificate never says that.
  if (!iso || Number.isNaN(date.getTime()) || date.toISOString() !== iso) throw new DerError('bad time')
  return date
}

/** Reads the fields card-jwe needs; throws DerError on anything that is not a certificate. */
export function parseCertificate(der: Uint8Array): CertificateFields {
  const certificate = expect(readTlv(der, 0), Tag.Sequence)
  if (certificate.end !== der.length) throw new DerError('trailing bytes')
  const fields = childrenOf(der, expect(childrenOf(der, certificate)[0], Tag.Sequence))
  // version is an optional explicit [0]; absent means v1.
  if (fields[0]?.tag === Tag.Context0) fields.shift()
  const [serial, signature, issuer, validity, subject, spki] = fields
  expect(serial, Tag.Integer)
  expect(signature, Tag.Sequence)
  expect(issuer, Tag.Sequence)
  expect(subject, Tag.Sequence)
  const [notBefore, notAfter] = childrenOf(der, expect(validity, Tag.Sequence))
  const keyInfo = expect(spki, Tag.Sequence)
  const [algorithm, publicKey] = childrenOf(der, keyInfo)
  expect(publicKey, Tag.BitString)
  const oid = expect(childrenOf(der, expect(algorithm, Tag.Sequence))[0], Tag.Oid)
  return {
    spki: der.slice(keyInfo.start, keyInfo.end),
    isRsaEncryptionKey: der.subarray(oid.contentStart, oid.end).join() === RSA_ENCRYPTION_OID,
    notBefore: parseTime(der, notBefore),
    notAfter: parseTime(der, notAfter),
  }
}
