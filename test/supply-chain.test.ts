/**
 * Supply chain: what `pnpm pack` would publish for each library holds no private key, no
 * test, no database or key file, and no source map that embeds sources or points outside the
 * package. Packs the real packages with pnpm and reads every file of every tarball.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const PUBLISHED = [
  'packages/card-jwe',
  'packages/browser-info',
  'packages/payment-validator',
  'packages/service-client',
  'packages/testkit',
]
/** A key itself (marker and a base64 body), not code that parses one. */
const PRIVATE_KEY = /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----\s*[A-Za-z0-9+/=\s]{100,}-----END/

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

describe('published tarballs', () => {
  it.each(PUBLISHED)('%s ships no keys, tests, databases or leaky source maps', (packageDir) => {
    const out = mkdtempSync(join(tmpdir(), 'card-jwe-pack-'))
    execFileSync('pnpm', ['pack', '--pack-destination', out], { cwd: join(ROOT, packageDir), stdio: 'pipe' })
    const tarball = readdirSync(out).find((name) => name.endsWith('.tgz'))!
    execFileSync('tar', ['xzf', join(out, tarball), '-C', out])
    const files = filesUnder(join(out, 'package')).map((file) => relative(join(out, 'package'), file))
    expect(files).toContain('package.json')
    expect(files.some((f) => f.startsWith('dist/') && f.endsWith('.js'))).toBe(true)

    const problems: string[] = []
    for (const file of files) {
      const text = readFileSync(join(out, 'package', file), 'utf8')
      if (/(^|\/)(test|tests|__tests__)\/|\.test\.[cm]?[jt]s/.test(file)) problems.push(`${file}: a test`)
      if (/\.(pem|key|p12|pfx|sqlite|db|env)$|(^|\/)\.env/.test(file)) problems.push(`${file}: a key, database or environment file`)
      if (PRIVATE_KEY.test(text)) problems.push(`${file}: holds a private key`)
      if (file.endsWith('.map')) {
        const map = JSON.parse(text) as { sources: string[]; sourcesContent?: unknown }
        if (map.sourcesContent) problems.push(`${file}: embeds its sources`)
        const outside = map.sources.filter(
          (source) => !relative(join(out, 'package'), join(out, 'package', file, '..', source)).match(/^src\//),
        )
        if (outside.length) problems.push(`${file}: points outside the package's src/ (${outside.join(', ')})`)
      }
    }
    expect(problems).toEqual([])
  })
})
