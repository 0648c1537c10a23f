import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const src = fileURLToPath(new URL('../src', import.meta.url))
/** Adapters and stores may use Node and their frameworks; every other folder is the core. */
const EDGE_FOLDERS = new Set(['node', 'hono', 'express', 'fastify', 'koa', 'sqlite', 'postgres'])
const coreFiles = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !EDGE_FOLDERS.has(file.split(/[\\/]/)[0]!))
  .sort()

describe('the core runs wherever fetch and WebCrypto do', () => {
  it('reads the core from every folder but the adapters and stores', () => {
    expect(coreFiles).toContain('ledger/modify.ts')
    expect(coreFiles).toContain('create-shop-backend.ts')
    expect(coreFiles.some((file) => file.startsWith('sqlite'))).toBe(false)
  })

  it.each(coreFiles)('%s imports no node: module, better-sqlite3 or a runtime adapter of hono, and uses no Buffer or process', (file) => {
    // Comments may speak of Buffer; code may not use it.
    const text = readFileSync(join(src, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
    // hono itself is Web-standard (Request, Response): the core's HTTP app; its Node server is an adapter's.
    expect(text).not.toMatch(/from '(node:|better-sqlite3|pg'|hono\/(bun|deno|aws-lambda|cloudflare)|@hono\/)/)
    expect(text).not.toMatch(/\bBuffer\b|\bprocess\./)
  })
})
