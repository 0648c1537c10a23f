// What is wrong with a certificatePem the back end would serve to every page, said without its text.

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

/**
 * Why `pem` is not one X.509 certificate in PEM, or undefined when it is one. The shape only (one
 * CERTIFICATE block of one DER SEQUENCE holding a SEQUENCE): the page's import reads the rest. A
 * private key is named first: served as the "certificate", it would reach every shopper's page.
 */
export function certificatePemProblem(pem: string): string | undefined {
  if (/PRIVATE KEY-----/.test(pem)) return "a private key, not a certificate: give the processor's certificate, and serve no key"
  const blocks = [...pem.matchAll(PEM_BLOCK)]
  if (blocks.length === 0) return 'not a PEM certificate (-----BEGIN CERTIFICATE-----): the text of the certificate file, not its path'
  if (blocks.length > 1) return "one certificate: the processor's, alone"
  const [, label, body] = blocks[0]!
  if (label !== 'CERTIFICATE') return `a PEM ${label}, not a CERTIFICATE`
  const der = base64Bytes(body!)
  // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE, ... }, its length the whole of the bytes.
  const header = der && der.length > 1 ? (der[1]! < 0x80 ? 2 : 2 + (der[1]! & 0x7f)) : 0
  const whole = der !== undefined && der[0] === 0x30 && derLength(der, 0) === der.length && der[header] === 0x30
  return whole ? undefined : 'a CERTIFICATE block that is not an X.509 certificate (base64 of DER)'
}
