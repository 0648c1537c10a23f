import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const src = fileURLToPath(new URL('../src', import.meta.url))
const coreFiles = [...readdirSync(src).filter((f) => f.endsWith('.ts')), ...readdirSync(join(src, 'lib')).map((f) => `lib/${f}`)]

describe('the core runs wherever fetch and WebCrypto do', () => {
  it.each(coreFiles)('%s imports no node: module, better-sqlite3 or hono, and uses no Buffer or process', (file) => {
    // Comments may speak of Buffer; code may not use it.
    const text = readFileSync(join(src, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
    expect(text).not.toMatch(/from '(node:|better-sqlite3|hono|@hono\/)/)
    expect(text).not.toMatch(/\bBuffer\b|\bprocess\./)
  })
})
