/**
 * A shop's project outside the workspace, made from the packed tarballs as `npm install` of the
 * published packages would make it. Installs come from pnpm's store when it has them
 * (`--prefer-offline`), so the test needs no network after `scripts/setup.sh --tests`.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { installEnv } from '../support/install-env.ts'

export const root = fileURLToPath(new URL('../../', import.meta.url))

/** The published packages: folder in the repository and npm name. */
export const PUBLISHED = [
  { folder: 'packages/card-jwe', name: 'card-jwe' },
  { folder: 'packages/card-fields', name: '@card-jwe/card-fields' },
  { folder: 'packages/checkout-actions', name: '@card-jwe/checkout-actions' },
  { folder: 'packages/checkout', name: '@card-jwe/checkout' },
  { folder: 'packages/browser-info', name: '@card-jwe/browser-info' },
  { folder: 'packages/payment-validator', name: '@card-jwe/payment-validator' },
  { folder: 'packages/service-client', name: '@card-jwe/service-client' },
  { folder: 'packages/testkit', name: '@card-jwe/testkit' },
  { folder: 'packages/sqlite-group-commit', name: '@card-jwe/sqlite-group-commit' },
  { folder: 'apps/sandbox', name: '@card-jwe/sandbox' },
  { folder: 'packages/shop-backend', name: '@card-jwe/shop-backend' },
] as const

/**
 * The jose a shop's app already has: the oldest release our `^6.0.0` range admits, so one install
 * proves both that card-jwe works with it and that the app ships a single copy.
 */
export const APP_JOSE = '6.0.0'

/** The tools the shop's project has, at the versions the workspace uses. */
const SHOP_TOOLS = {
  typescript: '5.9.3',
  vite: '8.3.8',
  vitest: '4.1.12',
  '@vitest/browser-playwright': '4.1.12',
  '@playwright/test': '1.65.1',
  '@types/node': '20.19.43',
  zod: '4.6.7',
  // A shop's own server (the shop-backend README's examples and the outside-project shops).
  hono: '4.13.19',
  '@hono/node-server': '2.1.9',
  express: '5.3.0',
  '@types/express': '5.0.6',
  fastify: '5.12.8',
  koa: '3.3.0',
  '@types/koa': '3.0.3',
  'better-sqlite3': '12.11.1',
  '@types/better-sqlite3': '9.6.0',
  pg: '8.23.1',
  '@types/pg': '8.23.1',
}

export interface ShopProject {
  readonly dir: string
  /** name -> path of the packed tarball */
  readonly tarballs: ReadonlyMap<string, string>
}

function run(command: string, args: readonly string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', env: installEnv({ CI: 'true' }) })
}

/** Packs every published package (their `dist` must be built) and installs the tarballs in a fresh project. */
export function makeShopProject(): ShopProject {
  const base = mkdtempSync(join(tmpdir(), 'card-jwe-shop-'))
  const packed = join(base, 'tarballs')
  mkdirSync(packed)
  const tarballs = new Map<string, string>()
  for (const { folder, name } of PUBLISHED) {
    const before = new Set(readdirSync(packed))
    run('pnpm', ['pack', '--pack-destination', packed], join(root, folder))
    const file = readdirSync(packed).find((f) => !before.has(f))
    if (!file) throw new Error(`pnpm pack wrote no tarball for ${name}`)
    tarballs.set(name, join(packed, file))
  }
  const dir = join(base, 'shop')
  mkdirSync(dir)
  const fromTarball = Object.fromEntries([...tarballs].map(([name, path]) => [name, `file:${path}`]))
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      { name: 'shop', private: true, type: 'module', dependencies: { ...fromTarball, jose: APP_JOSE }, devDependencies: SHOP_TOOLS },
      null,
      2,
    ),
  )
  // Our packages depend on each other by range (^0.1.0), which the registry cannot answer before
  // publication: point those ranges at the tarballs too.
  const overrides = [...tarballs].map(([name, path]) => `  ${JSON.stringify(name)}: ${JSON.stringify(`file:${path}`)}`).join('\n')
  // The sandbox keeps its state in SQLite: better-sqlite3's build is allowed, as in the workspace.
  writeFileSync(join(dir, 'pnpm-workspace.yaml'), `overrides:\n${overrides}\nallowBuilds:\n  better-sqlite3: true\n  esbuild: true\n`)
  run('pnpm', ['install', '--prefer-offline', '--config.confirmModulesPurge=false'], dir)
  return { dir, tarballs }
}

/** Runs a binary of the shop's project (node_modules/.bin) there; stdout, or throws with its output. */
export function runIn(project: ShopProject, bin: string, args: readonly string[]): string {
  return run(join(project.dir, 'node_modules/.bin', bin), args, project.dir)
}
