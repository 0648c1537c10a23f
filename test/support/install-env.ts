/**
 * The environment for every package install a test runs. Native modules (better-sqlite3) build from
 * source on a new machine, and node-gyp downloads Node's headers unless told where they are; only
 * the package registries are reachable, so an install that does not see this fails there (a warm
 * pnpm store hides it). `scripts/setup.sh` does the same for the workspace's own install.
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The prefix whose `include/node` holds the running Node's headers (`/usr` for Debian's nodejs). */
export function nodeHeadersDir(): string | undefined {
  if (process.env.npm_config_nodedir) return process.env.npm_config_nodedir
  const prefix = dirname(dirname(process.execPath))
  return existsSync(join(prefix, 'include/node/node.h')) ? prefix : undefined
}

/** `process.env` with node-gyp pointed at this Node's headers, plus `extra`. */
export function installEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const nodedir = nodeHeadersDir()
  return { ...process.env, ...(nodedir ? { npm_config_nodedir: nodedir } : {}), ...extra }
}
