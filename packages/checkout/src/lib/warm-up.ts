import { encryptCard, type EncryptionCertificate } from 'card-jwe'

/**
 * One throwaway encryption right after the certificate is imported, its JWE dropped: the browser's
 * first AES key, first RSA operation and the first run of the code cost milliseconds, paid at mount
 * instead of at Pay. The number is a well-known test number; nothing leaves the page. Gives the
 * certificate back, warmed or not.
 */
export function warmUp(certificate: EncryptionCertificate): Promise<EncryptionCertificate> {
  const card = { number: '4111111111111111', expiry: `12/${new Date().getFullYear() + 1}`, securityCode: '737' }
  const back = () => certificate
  return encryptCard(card, certificate).then(back, back)
}
