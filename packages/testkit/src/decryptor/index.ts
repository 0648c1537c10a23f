export {
  createCardDecryptor,
  DEFAULT_MAX_AGE_SECONDS,
  DEFAULT_MAX_CLOCK_SKEW_SECONDS,
  MAX_JWE_LENGTH,
  MIN_RSA_KEY_BITS,
} from './create-card-decryptor.js'
export type {
  CardDecryptor,
  CardDecryptorOptions,
  DecryptedCardJwe,
  DecryptedSecurityCodeJwe,
  OpenedJwe,
  SecurityCodeOptions,
} from './create-card-decryptor.js'
export { DecryptionError, SERVICE_MESSAGES } from './errors.js'
export type { DecryptionErrorCode } from './errors.js'
export type { DecryptedCard } from './lib/card-payload.js'
export type { DecryptedSecurityCode } from './lib/security-code-payload.js'
export type { CardJweHeader } from './lib/protected-header.js'
export type { PrivateKeyInput } from './lib/private-key.js'
export { decodeBase64url, encodeBase64url } from './lib/base64url.js'
export { aesCbcHmacSha256Decrypt } from './primitives/aes-cbc-hmac.js'
export { aesGcmDecrypt } from './primitives/aes-gcm.js'
export { rsaOaepDecrypt } from './primitives/rsa-oaep.js'
