// The certificate the back end serves every page, checked once at start and said without its text.

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g

/** A DER element's total length from its header, or undefined when the header does not fit the bytes. */
function derLength(bytes: Uint8Array, at: number): number | undefined {
  const first = bytes[at + 1]
  if (first === undefined) return undefined
  if (first < 0x80) return 2 + first
  const count = first & 0x7f
  if (count === 0 || count > 4 || at + 2 + count > bytes.length) return undefined
  let length = 0
  for (let i = 0; i < count; i++) length = length * 256 + bytes[at + 2 + i]!
  return 2 + count + length
}

function base64Bytes(text: string): Uint8Array | undefined {
  try {
    return Uint8Array.from(atob(text.replace(/\s+/g, '')), (c) => c.charCodeAt(0))
  } catch {
    return undefined
  }
}

/** Certificate ::= SEQUENCE { tbsCertificate SEQUENCE, ... }, its length the whole of the bytes. */
function isCertificateDer(der: Uint8Array | undefined): der is Uint8Array {
  if (der === undefined || der.length < 4 || der[0] !== 0x30 || derLength(der, 0) !== der.length) return false
  return der[der[1]! < 0x80 ? 2 : 2 + (der[1]! & 0x7f)] === 0x30
}

/** The DER as PEM in its usual form: 64 characters a line, nothing around the block. */
function pemOf(der: Uint8Array): string {
  const base64 = btoa(String.fromCharCode(...der))
  return `-----BEGIN CERTIFICATE-----\n${base64.replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`
}

/**
 * The processor's certificate as the page gets it: one X.509 certificate, from its PEM (text around
 * the block, as openssl's `-text` or a PKCS#12 export's "Bag Attributes", is left out) or a bare
 * base64 body, served as plain PEM. Or why `given` is none: a private key first (served, it would
 * reach every shopper's page), a path, two certificates, another kind of block. The shape only (one
 * DER SEQUENCE holding a SEQUENCE): the page's import reads the rest.
 */
export function servedCertificate(given: string): { pem: string } | { problem: string } {
  if (/PRIVATE KEY-----/.test(given))
    return { problem: "a private key, not a certificate: give the processor's certificate, and serve no key" }
  const blocks = [...given.matchAll(PEM_BLOCK)]
  if (blocks.length > 1) return { problem: "one certificate: the processor's, alone" }
  if (blocks.length === 1 && blocks[0]![1] !== 'CERTIFICATE') return { problem: 'a PEM block of another kind than CERTIFICATE' }
  const body = blocks.length === 1 ? blocks[0]![2]! : /^[A-Za-z0-9+/=\s]+$/.test(given) ? given : undefined
  if (body === undefined)
    return { problem: 'not a PEM certificate (-----BEGIN CERTIFICATE-----): the text of the certificate file, not its path' }
  const der = base64Bytes(body)
  return isCertificateDer(der) ? { pem: pemOf(der) } : { problem: 'not an X.509 certificate (base64 of DER)' }
}
