/**
 * Every TypeScript block of the READMEs (the repository's and each package's, which is its npm
 * page) type-checks against the packages' published types (their
 * built `dist/*.d.ts`, resolved as a user's project resolves them), strict, as NodeNext and as
 * bundler resolution. A README that drifts from the API fails here (issue 16).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const work = join(root, 'test-results/readme-examples')

/** The ```ts blocks of a Markdown file, with the line each starts on. */
function typescriptBlocks(markdown: string): Array<{ line: number; code: string }> {
  const blocks: Array<{ line: number; code: string }> = []
  const pattern = /^```ts\n([\s\S]*?)^```$/gm
  for (let match = pattern.exec(markdown); match; match = pattern.exec(markdown)) {
    blocks.push({ line: markdown.slice(0, match.index).split('\n').length, code: match[1]! })
  }
  return blocks
}

const READMES = ['README.md', 'packages/card-jwe/README.md', 'packages/browser-info/README.md', 'packages/payment-validator/README.md', 'packages/service-client/README.md', 'packages/testkit/README.md']

interface Block {
  readonly file: string
  readonly line: number
  readonly code: string
}

/** tsc's diagnostics for the blocks as modules of a fresh project; empty when they compile. */
function typeCheck(blocks: readonly Block[], moduleResolution: 'NodeNext' | 'Bundler'): string {
  const dir = join(work, moduleResolution.toLowerCase())
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const files = blocks.map((block) => {
    const name = `${block.file.replace(/[/.]/g, '-')}-line-${block.line}.ts`
    // Each block is a module of its own (top-level await, its own imports).
    writeFileSync(join(dir, name), `${block.code}\nexport {}\n`)
    return name
  })
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        module: moduleResolution === 'NodeNext' ? 'NodeNext' : 'ESNext',
        moduleResolution,
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(root, 'node_modules/@types')],
      },
      files: [...files, join(root, 'test/readme/readme-globals.d.ts')],
    }),
  )
  // A package.json with "type": "module", as an ESM project has.
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8', stdio: 'pipe' })
    return ''
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error)
  }
}

describe('README examples', () => {
  const blocks: Block[] = READMES.flatMap((file) => typescriptBlocks(readFileSync(join(root, file), 'utf8')).map((block) => ({ file, ...block })))

  it('are there to check, in every README', () => {
    for (const file of READMES) expect(blocks.filter((b) => b.file === file).length, file).toBeGreaterThanOrEqual(1)
    expect(blocks.length).toBeGreaterThanOrEqual(11)
  })

  it.each(['NodeNext', 'Bundler'] as const)('type-check with %s resolution against the built packages', (resolution) => {
    expect(typeCheck(blocks, resolution)).toBe('')
  })

  it('fail when an example is broken', () => {
    const broken = blocks.map((b) => ({ ...b, code: b.code.replace('encryptCard(', 'encryptCards(') }))
    expect(typeCheck(broken, 'NodeNext')).toMatch(/error TS2552|error TS2724|error TS2305|encryptCards/)
  })
})
