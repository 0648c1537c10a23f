import { CardJweError } from '../errors.js'

/** WebCrypto's SubtleCrypto, present in Node >= 19 and in browsers only in secure contexts. */
export function getSubtle(): SubtleCrypto {
  const subtle = globalThis.crypto?.subtle
  if (!subtle) {
    throw new CardJweError('ERR_WEBCRYPTO_UNAVAILABLE', 'crypto.subtle is unavailable: use HTTPS or localhost')
  }
  return subtle
}
