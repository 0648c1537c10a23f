/**
 * The packages as a user gets them: packed with `pnpm pack`, installed in a project outside
 * the workspace beside the app's own jose, then every README example type-checked there (Node16 and
 * bundler resolution), the page's examples built with Vite, the Node examples run, the command run,
 * and each tarball linted by publint (strict) and attw (ESM-only profile).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServiceClient } from '@card-jwe/service-client'
import { beforeAll, describe, expect, it } from 'vitest'
import { blockFileName, isBrowserExample, isRunnableInNode, READMES, readmeBlocks, type ReadmeBlock } from './readme-blocks.ts'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { changedCheckoutPage, type PageChange } from './changed-checkout-page.ts'
import { APP_JOSE, makeShopProject, PUBLISHED, root, runIn, type ShopProject } from './shop-project.ts'

// A new project installed from the packed tarballs with a cold store: past 180 s on a loaded two-core host.
const SETUP_TIMEOUT = 360_000
const STEP_TIMEOUT = 120_000

let project: ShopProject
const blocks = readmeBlocks(root)

beforeAll(() => {
  project = makeShopProject()
}, SETUP_TIMEOUT)

type Resolution = 'Node16' | 'Bundler'

/** Writes the blocks as modules of a folder of the shop's project, with a tsconfig for them. */
function writeExamples(folder: string, examples: readonly ReadmeBlock[], compilerOptions: Record<string, unknown>): string {
  const dir = join(project.dir, folder)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  // Each block is a module of its own (top-level await, its own imports).
  const files = examples.map((block) => {
    writeFileSync(join(dir, blockFileName(block)), `${block.code}\nexport {}\n`)
    return blockFileName(block)
  })
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', lib: ['ES2022', 'DOM'], strict: true, skipLibCheck: true, types: ['node'], ...compilerOptions },
      files,
    }),
  )
  return dir
}

/** tsc's diagnostics for the blocks in the shop's project; empty when they compile. */
function typeCheck(examples: readonly ReadmeBlock[], resolution: Resolution): string {
  const dir = writeExamples(`readme-${resolution.toLowerCase()}`, examples, {
    module: resolution === 'Node16' ? 'Node16' : 'ESNext',
    moduleResolution: resolution,
    noEmit: true,
  })
  writeFileSync(join(dir, 'readme-globals.d.ts'), readFileSync(join(root, 'test/publish/readme-globals.d.ts')))
  const config = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8'))
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...config, files: [...config.files, 'readme-globals.d.ts'] }))
  try {
    runIn(project, 'tsc', ['-p', dir])
    return ''
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error)
  }
}

describe('the packed tarballs, installed in a shop project outside the workspace', () => {
  it('hold a README, a LICENSE, types and no test code', () => {
    for (const [name, tarball] of project.tarballs) {
      const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n')
      expect(files, name).toEqual(expect.arrayContaining(['package/README.md', 'package/LICENSE', 'package/package.json']))
      expect(
        files.some((f) => f.endsWith('.d.ts')),
        name,
      ).toBe(true)
      expect(
        files.filter((f) => /\.test\.|\/test\//.test(f)),
        name,
      ).toEqual([])
    }
  })

  it.each(PUBLISHED)('$name holds every file and folder its package.json `files` names', ({ folder, name }) => {
    const files = execFileSync('tar', ['tzf', project.tarballs.get(name)!], { encoding: 'utf8' }).split('\n')
    const named: string[] = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')).files
    const missing = named.filter((entry) => !files.some((f) => f === `package/${entry}` || f.startsWith(`package/${entry}/`)))
    expect(missing).toEqual([])
  })

  it.each(PUBLISHED.map((p) => p.name))(
    "%s: README and typings point at nothing a tarball user lacks (the repository's docs/, apps/, scripts)",
    (name) => {
      const unpacked = mkdtempSync(join(tmpdir(), 'card-jwe-unpacked-'))
      execFileSync('tar', ['xzf', project.tarballs.get(name)!, '-C', unpacked])
      const files = readdirSync(join(unpacked, 'package'), { recursive: true, encoding: 'utf8' }).filter(
        (f) => f === 'README.md' || f.endsWith('.d.ts'),
      )
      const pointers = files.flatMap((file) =>
        [
          ...readFileSync(join(unpacked, 'package', file), 'utf8').matchAll(
            /\bdocs\/[\w.-]+\.(md|json|html)|\bapps\/(demo|sandbox)\/|\bscripts\/[\w-]+\.(sh|mjs)|pnpm docs:api|repository README/g,
          ),
        ].map((m) => `${file}: ${m[0]}`),
      )
      rmSync(unpacked, { recursive: true, force: true })
      expect(pointers).toEqual([])
    },
  )

  it.each(PUBLISHED.map((p) => p.name))(
    '%s passes publint --strict',
    (name) => {
      expect(() =>
        execFileSync(join(root, 'test/node_modules/.bin/publint'), ['--strict', project.tarballs.get(name)!], { stdio: 'pipe' }),
      ).not.toThrow()
    },
    STEP_TIMEOUT,
  )

  it.each(PUBLISHED.map((p) => p.name))(
    '%s passes attw --profile esm-only',
    (name) => {
      expect(() =>
        execFileSync(join(root, 'test/node_modules/.bin/attw'), ['--profile', 'esm-only', '--no-color', project.tarballs.get(name)!], {
          stdio: 'pipe',
        }),
      ).not.toThrow()
    },
    STEP_TIMEOUT,
  )

  describe('README examples', () => {
    it('are there to check, in every README', () => {
      for (const file of READMES) expect(blocks.filter((b) => b.file === file).length, file).toBeGreaterThanOrEqual(1)
      expect(blocks.filter(isBrowserExample).length).toBeGreaterThanOrEqual(3)
      expect(blocks.filter(isRunnableInNode).length).toBeGreaterThanOrEqual(2)
    })

    it.each(['Node16', 'Bundler'] as const)(
      'type-check with %s resolution',
      (resolution) => {
        expect(typeCheck(blocks, resolution)).toBe('')
      },
      STEP_TIMEOUT,
    )

    it(
      'fail the check when one is broken',
      () => {
        const broken = blocks.map((b) => ({ ...b, code: b.code.replace('encryptCard(', 'encryptCards(') }))
        expect(typeCheck(broken, 'Node16')).toMatch(/error TS\d+: .*encryptCards/)
      },
      STEP_TIMEOUT,
    )

    it(
      'run as written in Node: the card comes back from the testkit decryptor',
      () => {
        const runnable = blocks
          .filter(isRunnableInNode)
          .map((b) => ({ ...b, code: `${b.code}\nconsole.log(JSON.stringify(Object.keys(card)))` }))
        const dir = writeExamples('readme-node-run', runnable, { module: 'Node16', moduleResolution: 'Node16', outDir: 'out' })
        writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
        runIn(project, 'tsc', ['-p', dir])
        for (const block of runnable) {
          const output = execFileSync(process.execPath, [join(dir, 'out', blockFileName(block).replace(/\.ts$/, '.js'))], {
            cwd: project.dir,
            encoding: 'utf8',
          })
          expect(JSON.parse(output), `${block.file}:${block.line}`).toEqual([
            'number',
            'expiryMonth',
            'expiryYear',
            'cvc',
            'generationtime',
          ])
        }
      },
      STEP_TIMEOUT,
    )

    it(
      `of the page build with Vite, with one copy of jose: the app's own ${APP_JOSE}`,
      () => {
        const pageExamples = blocks.filter(isBrowserExample)
        const dir = writeExamples('page', pageExamples, { module: 'ESNext', moduleResolution: 'Bundler', noEmit: true })
        // The app uses jose itself, as a shop that verifies its own tokens would.
        writeFileSync(
          join(dir, 'app-jose.ts'),
          "import { decodeProtectedHeader } from 'jose'\nexport const headerOf = (jwe: string) => decodeProtectedHeader(jwe)\n",
        )
        writeFileSync(
          join(dir, 'main.ts'),
          ["import './app-jose.ts'", ...pageExamples.map((b) => `import './${blockFileName(b)}'`)].join('\n'),
        )
        writeFileSync(join(dir, 'index.html'), '<!doctype html><script type="module" src="./main.ts"></script>\n')
        writeFileSync(
          join(dir, 'vite.config.mjs'),
          "export default { build: { target: 'es2022', sourcemap: true, outDir: 'dist' }, logLevel: 'warn' }\n",
        )
        runIn(project, 'vite', ['build', dir, '--config', join(dir, 'vite.config.mjs')])

        const assets = join(dir, 'dist/assets')
        const maps = readdirSync(assets).filter((f) => f.endsWith('.js.map'))
        expect(maps.length).toBeGreaterThanOrEqual(1)
        const sources: string[] = maps.flatMap((map) => JSON.parse(readFileSync(join(assets, map), 'utf8')).sources)
        // pnpm keeps each version of a package in its own `jose@<version>` folder.
        const joseCopies = new Set(sources.flatMap((source) => /\/jose@([^/]+)\//.exec(source)?.[1] ?? []))
        expect([...joseCopies]).toEqual([APP_JOSE])
        expect(sources.some((s) => s.includes('card-jwe'))).toBe(true)
        expect(sources.filter((s) => /@peculiar|testkit|node:/.test(s))).toEqual([])
      },
      STEP_TIMEOUT,
    )
  })

  it('give the card-jwe command from the testkit, with its version', () => {
    const { version } = JSON.parse(readFileSync(join(root, 'packages/testkit/package.json'), 'utf8'))
    expect(runIn(project, 'card-jwe', ['--version']).trim()).toBe(version)
  })

  it(
    'give the sandbox its own command: card-jwe-sandbox answers signed calls for the ready-made store it prints',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'card-jwe-sandbox-cli-'))
      const child = spawn(
        join(project.dir, 'node_modules/.bin/card-jwe-sandbox'),
        ['--port', '0', '--data-dir', dataDir, '--ready-made-store'],
        { cwd: project.dir },
      )
      try {
        let printed = ''
        child.stdout.on('data', (chunk: Buffer) => (printed += chunk))
        const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
        const deadline = Date.now() + 30_000
        while (!/^store id .+$/m.test(printed) && Date.now() < deadline && child.exitCode === null)
          await new Promise((r) => setTimeout(r, 50))
        const line = (label: string) => new RegExp(`^${label} (.+)$`, 'm').exec(printed)?.[1]
        const [baseUrl, certificatePath, shopId, serviceSecret, storeId] = [
          'sandbox listening at',
          'certificate',
          'shop id',
          'service secret',
          'store id',
        ].map(line)
        expect(baseUrl, printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
        expect(line('SHA-256')).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
        expect(readFileSync(certificatePath!, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/)
        const client = createServiceClient({ baseUrl: baseUrl!, credentials: { shopId: shopId!, serviceSecret: serviceSecret! } })
        const methods = await client.checkoutPaymentMethods(storeId!, { country: 'NL', currency: 'EUR' })
        expect((methods.paymentMethods ?? []).map((m) => m.type)).toContain('scheme')
        // Its port taken (this one still runs): one plain line naming the port and --port, exit 1, no stack.
        const port = new URL(baseUrl!).port
        const second = spawnSync(join(project.dir, 'node_modules/.bin/card-jwe-sandbox'), ['--port', port, '--data-dir', `${dataDir}-2`], {
          encoding: 'utf8',
          timeout: 15_000, // a second sandbox that started after all is ended, not waited for
        })
        expect(second.stderr).toBe(
          `card-jwe-sandbox: port ${port} on 127.0.0.1 is in use: stop what holds it, or pass --port N (0 for any free one)\n`,
        )
        expect(second.status).toBe(1)
        child.kill('SIGTERM')
        expect(await exited).toBe(0)
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL')
        rmSync(dataDir, { recursive: true, force: true })
        rmSync(`${dataDir}-2`, { recursive: true, force: true })
      }
      // Wrong words are refused with the rule and the usage, exit 2.
      const wrong = spawnSync(join(project.dir, 'node_modules/.bin/card-jwe-sandbox'), ['--port', 'eighty'], { encoding: 'utf8' })
      expect(wrong.status).toBe(2)
      expect(wrong.stderr).toMatch(/--port: a whole number from 0 to 65535/)
      expect(existsSync(join(project.dir, '.sandbox-data'))).toBe(false)
    },
    STEP_TIMEOUT,
  )

  it(
    'give the sandbox command --json: one JSON line on standard output a script reads, the log on standard error',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'card-jwe-sandbox-json-'))
      const child = spawn(
        join(project.dir, 'node_modules/.bin/card-jwe-sandbox'),
        ['--port', '0', '--data-dir', dataDir, '--ready-made-store', '--json'],
        { cwd: project.dir },
      )
      try {
        let printed = ''
        let logged = ''
        child.stdout.on('data', (chunk: Buffer) => (printed += chunk))
        child.stderr.on('data', (chunk: Buffer) => (logged += chunk))
        const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
        const deadline = Date.now() + 30_000
        while (!printed.endsWith('\n') && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50))
        const ready = JSON.parse(printed) as Record<string, string>
        expect(Object.keys(ready).sort()).toEqual(
          ['baseUrl', 'certificatePath', 'databasePath', 'fingerprint', 'privateKeyPath', 'serviceSecret', 'shopId', 'storeId'].sort(),
        )
        expect(ready.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
        expect(readFileSync(ready.certificatePath!, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/)
        expect(logged).toContain(`[sandbox] seeded ${ready.shopId} with ready-made store ${ready.storeId}`)
        const client = createServiceClient({
          baseUrl: ready.baseUrl!,
          credentials: { shopId: ready.shopId!, serviceSecret: ready.serviceSecret! },
        })
        const methods = await client.checkoutPaymentMethods(ready.storeId!, { country: 'NL', currency: 'EUR' })
        expect((methods.paymentMethods ?? []).map((m) => m.type)).toContain('scheme')
        child.kill('SIGTERM')
        expect(await exited).toBe(0)
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL')
        rmSync(dataDir, { recursive: true, force: true })
      }
    },
    STEP_TIMEOUT,
  )

  describe('the Playwright fixture: the demo spec, run from the tarballs against the demo shop', () => {
    const DEMO_FRONT = join(root, 'apps/demo/dist/front')
    const CHROMIUM_ARGS =
      "'--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'"
    /** The shop's own config: Debian's Chromium, as on this machine. */
    const CONFIG = `import { defineConfig } from '@playwright/test'
export default defineConfig({
  testDir: '.', outputDir: '../playwright-results', timeout: 60_000, reporter: [['list']],
  use: { browserName: 'chromium', launchOptions: { executablePath: '/usr/bin/chromium', args: [${CHROMIUM_ARGS}] } },
})
`
    /** Runs the spec with Playwright Test in the shop's project; the page changed or not. */
    function runSpec(change?: PageChange): { status: number | null; output: string } {
      const dir = join(project.dir, 'e2e')
      mkdirSync(dir, { recursive: true })
      for (const file of ['shop.ts', 'checkout.spec.ts']) copyFileSync(join(root, 'apps/demo/e2e', file), join(dir, file))
      writeFileSync(join(dir, 'playwright.config.ts'), CONFIG)
      const env = {
        ...process.env,
        CI: 'true',
        FORCE_COLOR: '0',
        DEMO_SHOP_MAIN: join(root, 'apps/demo/dist/server/main.js'),
        ...(change ? { DEMO_FRONT_DIR: changedCheckoutPage(DEMO_FRONT, change) } : {}),
      }
      const run = spawnSync(join(project.dir, 'node_modules/.bin/playwright'), ['test', '-c', join(dir, 'playwright.config.ts')], {
        cwd: project.dir,
        env,
        encoding: 'utf8',
      })
      const output = `${run.stdout}${run.stderr}`
      // Kept for the record (the closing note quotes them).
      writeFileSync(join(root, 'test-results', `playwright-fixture-${change ?? 'good-page'}.txt`), output)
      return { status: run.status, output }
    }
    const card = findTestCard({ brand: 'visa', threeDSecure: 'challenge' })

    it(
      'passes against the demo as built',
      () => {
        mkdirSync(join(root, 'test-results'), { recursive: true })
        const { status, output } = runSpec()
        expect(output).toMatch(/1 passed/)
        expect(status).toBe(0)
      },
      STEP_TIMEOUT,
    )

    it.each([
      ['clear-digit', /CardCaptureError: POST \/api\/payments: number: 15 digits encrypted, 16 typed/],
      ['old-jwe', /CardCaptureError: POST \/api\/payments: generationtime is 25\.0 h old; the service accepts 24 h at most/],
    ] as const)(
      'fails when the page is changed: %s',
      (change, message) => {
        const { status, output } = runSpec(change)
        expect(output).toMatch(message)
        expect(output).toMatch(/1 failed/)
        expect(status).not.toBe(0)
        expect(output).not.toContain(card.number)
        expect(output).not.toContain(card.number.replace(/(\d{4})(?=\d)/g, '$1 '))
      },
      STEP_TIMEOUT,
    )
  })
})
