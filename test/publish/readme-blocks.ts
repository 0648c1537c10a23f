/** The TypeScript examples of our READMEs (the repository's and each package's, which is its npm page). */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export const READMES = [
  'README.md',
  'packages/card-jwe/README.md',
  'packages/card-fields/README.md',
  'packages/checkout-actions/README.md',
  'packages/checkout/README.md',
  'packages/browser-info/README.md',
  'packages/payment-validator/README.md',
  'packages/service-client/README.md',
  'packages/testkit/README.md',
  'packages/sqlite-group-commit/README.md',
  'apps/sandbox/README.md',
  'packages/shop-backend/README.md',
] as const

export interface ReadmeBlock {
  readonly file: string
  /** the line its fence opens on */
  readonly line: number
  readonly code: string
  /** the modules it imports */
  readonly imports: readonly string[]
}

/** Every ```ts block of the READMEs, read from the repository at `root`. */
export function readmeBlocks(root: string): ReadmeBlock[] {
  return READMES.flatMap((file) => {
    const markdown = readFileSync(join(root, file), 'utf8')
    const blocks: ReadmeBlock[] = []
    const pattern = /^```ts\n([\s\S]*?)^```$/gm
    for (let match = pattern.exec(markdown); match; match = pattern.exec(markdown)) {
      const code = match[1]!
      const imports = [...code.matchAll(/\bfrom '([^']+)'/g)].map((m) => m[1]!)
      blocks.push({ file, line: markdown.slice(0, match.index).split('\n').length, code, imports })
    }
    return blocks
  })
}

/** A file name for a block, unique and readable in a compiler message. */
export function blockFileName(block: ReadmeBlock): string {
  return `${block.file.replace(/[/.]/g, '-')}-line-${block.line}.ts`
}

const BROWSER_MODULES = new Set([
  'card-jwe',
  '@card-jwe/browser-info',
  '@card-jwe/card-fields',
  '@card-jwe/checkout-actions',
  '@card-jwe/checkout',
])

/** A page's example: it imports only what a page may (no server, no test code). */
export function isBrowserExample(block: ReadmeBlock): boolean {
  return (
    block.imports.length > 0 &&
    // A browser package's subpath entries (locales, core, saved cards) are browser modules too.
    block.imports.every((m) => BROWSER_MODULES.has(m) || [...BROWSER_MODULES].some((name) => m.startsWith(`${name}/`)))
  )
}

/** An example that runs as written in Node: it uses the testkit and needs nothing the shop supplies. */
export function isRunnableInNode(block: ReadmeBlock): boolean {
  return (
    block.imports.includes('@card-jwe/testkit') &&
    block.imports.every((m) => m === 'card-jwe' || m === '@card-jwe/testkit' || m.startsWith('node:'))
  )
}
