import { randomBytes } from 'node:crypto'

const ALPHANUMERIC = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ'

/** 16 characters, as the widely used checkout APIs' pspReference: unique and never reused. */
export function newPspReference(): string {
  return Array.from(randomBytes(16), (b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('')
}

/** A random identifier with a readable prefix: "shop_…", "store_…". */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`
}

/** A strong secret: 256 random bits, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url')
}

/** UUID v4 for 3-D Secure transaction identifiers (EMV uses UUIDs for threeDSServerTransID, acsTransID). */
export function newTransactionId(): string {
  return crypto.randomUUID()
}
