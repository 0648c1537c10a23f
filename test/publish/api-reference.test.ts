/**
 * The API reference (TypeDoc, `pnpm docs:api`) documents every export: `pnpm docs:check`, the
 * build's last step, fails on one that is not. That it does fail is shown here, on a
 * copy of one package with an undocumented export added.
 */
import { execFileSync } from 'node:child_process'
import { appendFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { root } from './shop-project.ts'

const TYPEDOC_TIMEOUT = 120_000
const typedoc = join(root, 'node_modules/.bin/typedoc')

/** TypeDoc's exit status and its warnings. */
function runTypedoc(cwd: string, args: readonly string[]): { status: number; output: string } {
  try {
    const output = execFileSync(typedoc, ['--emit', 'none', '--logLevel', 'Warn', ...args], { cwd, encoding: 'utf8', stdio: 'pipe' })
    return { status: 0, output }
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string }
    return { status: failed.status, output: failed.stdout + failed.stderr }
  }
}

describe('the API reference', () => {
  it(
    'fails the check on an undocumented export, naming it',
    () => {
      const copy = join(root, 'test-results/api-reference')
      rmSync(copy, { recursive: true, force: true })
      mkdirSync(join(copy, 'packages'), { recursive: true })
      cpSync(join(root, 'tsconfig.base.json'), join(copy, 'tsconfig.base.json'))
      cpSync(join(root, 'typedoc.json'), join(copy, 'typedoc.json'))
      const pkg = join(copy, 'packages/browser-info')
      for (const part of ['src', 'package.json', 'tsconfig.json', 'typedoc.json'])
        cpSync(join(root, 'packages/browser-info', part), join(pkg, part), { recursive: true })
      appendFileSync(join(pkg, 'src/index.ts'), '\nexport const undocumentedExport = 1\n')
      writeFileSync(join(copy, 'api-readme.md'), '# check\n')

      const { status, output } = runTypedoc(copy, ['--entryPoints', 'packages/browser-info', '--readme', 'api-readme.md'])
      expect(output).toMatch(/undocumentedExport \(Variable\).*does not have any documentation/)
      expect(status).not.toBe(0)
    },
    TYPEDOC_TIMEOUT,
  )
})
