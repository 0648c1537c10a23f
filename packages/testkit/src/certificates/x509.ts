// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata API;
// the polyfill must load first. This is why the library stays out of every browser entry.
import 'reflect-metadata'
import * as x509 from '@peculiar/x509'

x509.cryptoProvider.set(globalThis.crypto)

export { x509 }

/** "AB:CD:..." as `openssl x509 -fingerprint -sha256` prints it. */
export async function fingerprintOf(certificate: x509.X509Certificate): Promise<string> {
  const digest = new Uint8Array(await certificate.getThumbprint('SHA-256'))
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':')
}
