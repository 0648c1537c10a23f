import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The CSP hashes (`sha256-…`) of the import maps in the built pages: the pages' only inline
 * scripts, which carry the integrity of every module a page imports (build/subresource-integrity.ts).
 * Read from the files the shop serves, so the policy always matches what it sends.
 */
export function importMapHashes(frontDir: string): string[] {
  const hashes: string[] = []
  for (const file of readdirSync(frontDir).filter((name) => name.endsWith('.html'))) {
    for (const match of readFileSync(join(frontDir, file), 'utf8').matchAll(/<script type="importmap">([\s\S]*?)<\/script>/g)) {
      hashes.push(`sha256-${createHash('sha256').update(match[1]!).digest('base64')}`)
    }
  }
  return hashes
}
