import { CardJweError } from '../errors.js'

/** What `importCertificate` takes: PEM text, a bare base64 body, or DER (or PEM) bytes. */
export type CertificateInput = string | Uint8Array | ArrayBuffer

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

function malformed(why: string): CardJweError {
  return new CardJweError('ERR_CERTIFICATE_MALFORMED', `certificate: ${why}`)
}

function fromBase64(body: string): Uint8Array {
  const compact = body.replace(/\s+/g, '')
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) throw malformed('is not valid base64')
  const binary = atob(compact)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

function fromText(text: string): Uint8Array {
  const block = PEM_BLOCK.exec(text)
  if (block) {
    if (block[1] !== 'CERTIFICATE') throw malformed(`PEM block is "${block[1]}", expected "CERTIFICATE"`)
    return fromBase64(block[2]!)
  }
  if (text.includes('-----BEGIN')) throw malformed('PEM block has no matching END line')
  return fromBase64(text)
}

/** DER bytes of the certificate, from any accepted input form. */
export function certificateBytes(input: CertificateInput): Uint8Array {
  if (typeof input === 'string') return fromText(input)
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input
  if (!(bytes instanceof Uint8Array)) {
    throw new CardJweError('ERR_INVALID_ARGUMENT', 'certificate: expected PEM text, base64 text, or DER bytes')
  }
  // DER starts with a SEQUENCE tag; anything else is taken as PEM or base64 text read as bytes.
  return bytes[0] === 0x30 ? bytes : fromText(new TextDecoder().decode(bytes))
}
