/**
 * A package's root types compile for a shop that has not installed its optional peers: a type
 * imported from one (Playwright Test's `Page`) is an error under `skipLibCheck: false` where it is
 * missing. Optional peers belong to subpaths (`./playwright`, `./express`), not to the root.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PUBLISHED, root } from './shop-project.ts'

interface PackageJson {
  readonly exports: { readonly '.': { readonly types: string } }
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>
}

/**
 * The module names a declaration file names: `import type … from`, `export … from`, `import('…')`,
 * `require('…')`, a bare `import '…'`, `declare module '…'` and `/// <reference types="…" />`.
 */
const specifiersOf = (text: string) =>
  [
    ...text.matchAll(
      /(?:from\s+|import\s*\(\s*|require\s*\(\s*|^\s*import\s+|declare\s+module\s+)['"]([^'"]+)['"]|<reference\s+types=['"]([^'"]+)['"]/gm,
    ),
  ].map((m) => (m[1] ?? m[2])!)

/** The declaration files reachable from `entry`, and the packages (bare names, no subpaths) they import. */
function packagesImportedFrom(entry: string): { files: number; packages: Set<string> } {
  const seen = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file)) return
    seen.add(file)
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.d.ts')))
      else packages.add(specifier.split('/', specifier.startsWith('@') ? 2 : 1).join('/'))
    }
  }
  visit(entry)
  return { files: seen.size, packages }
}

describe('the root types of each published package', () => {
  it.each(PUBLISHED.map((p) => p.folder))('%s: import no optional peer dependency', (folder) => {
    const pkg = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as PackageJson
    const optional = Object.entries(pkg.peerDependenciesMeta ?? {}).flatMap(([name, meta]) => (meta.optional ? [name] : []))
    const { files, packages } = packagesImportedFrom(join(root, folder, pkg.exports['.'].types))
    expect(files, `${folder}: its root types not built`).toBeGreaterThan(1)
    expect(optional.filter((name) => packages.has(name))).toEqual([])
  })
})
