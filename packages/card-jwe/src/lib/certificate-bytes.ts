import { CardJweError } from '../errors.js'

/** What `importCertificate` takes: PEM text, a bare base64 body, or DER (or PEM) bytes. */
export type CertificateInput = string | Uint8Array | ArrayBuffer

/**
 * PEM or bare base64 to bytes. WHATWG forgiving-base64 (`atob`) skips whitespace and refuses
 * anything else, so a PUBLIC KEY or PRIVATE KEY block, whose armour lines remain, is refused too.
 */
function fromText(text: string): Uint8Array {
  try {
    return Uint8Array.from(atob(text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')), (c) => c.charCodeAt(0))
  } catch {
    throw new CardJweError('ERR_CERTIFICATE_MALFORMED', 'certificate: expected PEM CERTIFICATE, base64 or DER')
  }
}

/** DER bytes of the certificate, from any accepted input form. */
export function certificateBytes(input: CertificateInput): Uint8Array {
  if (typeof input === 'string') return fromText(input)
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input
  if (!(bytes instanceof Uint8Array)) throw new CardJweError('ERR_INVALID_ARGUMENT', 'certificate: expected text or bytes')
  // DER starts with a SEQUENCE tag; anything else is taken as PEM or base64 text read as bytes.
  return bytes[0] === 0x30 ? bytes : fromText(new TextDecoder().decode(bytes))
}
