import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'

/**
 * Encryption at rest for the shop's secrets (spec: "service_secret is stored permanently,
 * encrypted, outside any web root"): AES-256-GCM with a random key kept in a file of its own,
 * mode 0600, in the shop's data folder, which is neither served nor part of the repository.
 */
export interface SecretBox {
  seal(plaintext: string): string
  open(sealed: string): string
}

export function openSecretBox(keyPath: string): SecretBox {
  if (!existsSync(keyPath)) writeFileSync(keyPath, randomBytes(32).toString('base64'), { mode: 0o600 })
  const key = Buffer.from(readFileSync(keyPath, 'utf8'), 'base64')
  if (key.length !== 32) throw new Error(`${keyPath}: not a 256-bit key`)
  return {
    seal(plaintext) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.')
    },
    open(sealed) {
      const [version, iv, body, tag] = sealed.split('.')
      if (version !== 'v1' || !iv || body === undefined || !tag) throw new Error('sealed secret: unknown format')
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
    },
  }
}
