import { childrenOf, DerError, readTlv, TAG, type Tlv } from './der.js'

/** What card-jwe needs from an X.509 certificate (RFC 5280 section 4.1). */
export interface CertificateFields {
  /** DER of SubjectPublicKeyInfo, ready for `crypto.subtle.importKey('spki', ...)`. */
  readonly spki: Uint8Array
  /** Whether the key's algorithm is rsaEncryption (1.2.840.113549.1.1.1). */
  readonly isRsaEncryptionKey: boolean
  readonly notBefore: Date
  readonly notAfter: Date
}

// DER of OID 1.2.840.113549.1.1.1 (rsaEncryption), RFC 8017 appendix A.1.
const RSA_ENCRYPTION_OID = '2a864886f70d010101'

function expect(tlv: Tlv | undefined, tag: number): Tlv {
  if (!tlv || tlv.tag !== tag) throw new DerError('unexpected structure')
  return tlv
}

function hex(bytes: Uint8Array): string {
  let out = ''
  for (const b of bytes) out += b.toString(16).padStart(2, '0')
  return out
}

/**
 * RFC 5280 4.1.2.5: UTCTime is YYMMDDHHMMSSZ (YY >= 50 means 19YY), GeneralizedTime is
 * YYYYMMDDHHMMSSZ; both in UTC with seconds and no fractions.
 */
function parseTime(bytes: Uint8Array, tlv: Tlv): Date {
  const text = String.fromCharCode(...bytes.subarray(tlv.contentStart, tlv.end))
  const pattern = tlv.tag === TAG.UTC_TIME ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/ : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/
  const m = pattern.exec(text)
  if (!m || (tlv.tag !== TAG.UTC_TIME && tlv.tag !== TAG.GENERALIZED_TIME)) throw new DerError('bad time')
  let year = Number(m[1])
  if (tlv.tag === TAG.UTC_TIME) year += year >= 50 ? 1900 : 2000
  const [month, day, hour, minute, second] = m.slice(2).map(Number) as [number, number, number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second))
  // Date.UTC rolls 31 February into March; a real certificate never says that.
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    throw new DerError('bad time')
  }
  return date
}

/** Reads the fields card-jwe needs; throws DerError on anything that is not a certificate. */
export function parseCertificate(der: Uint8Array): CertificateFields {
  const certificate = expect(readTlv(der, 0), TAG.SEQUENCE)
  if (certificate.end !== der.length) throw new DerError('trailing bytes')
  const [tbs] = childrenOf(der, certificate)
  const fields = childrenOf(der, expect(tbs, TAG.SEQUENCE))
  // version is an optional explicit [0]; absent means v1.
  if (fields[0]?.tag === TAG.CONTEXT_0) fields.shift()
  const [serial, signature, issuer, validity, subject, spki] = fields
  expect(serial, TAG.INTEGER)
  expect(signature, TAG.SEQUENCE)
  expect(issuer, TAG.SEQUENCE)
  expect(subject, TAG.SEQUENCE)
  const [notBefore, notAfter] = childrenOf(der, expect(validity, TAG.SEQUENCE))
  if (!notBefore || !notAfter) throw new DerError('bad validity')
  const keyInfo = expect(spki, TAG.SEQUENCE)
  const [algorithm, publicKey] = childrenOf(der, keyInfo)
  expect(publicKey, TAG.BIT_STRING)
  const [oid] = childrenOf(der, expect(algorithm, TAG.SEQUENCE))
  const oidTlv = expect(oid, TAG.OID)
  return {
    spki: der.slice(keyInfo.start, keyInfo.end),
    isRsaEncryptionKey: hex(der.subarray(oidTlv.contentStart, oidTlv.end)) === RSA_ENCRYPTION_OID,
    notBefore: parseTime(der, notBefore),
    notAfter: parseTime(der, notAfter),
  }
}
