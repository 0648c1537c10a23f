import { createRequire } from 'node:module'

/** What the check reads of better-sqlite3's package.json. */
export interface DriverPackage {
  readonly version: string
  readonly engines?: { readonly node?: string }
}

/** The Node major an `engines.node` of the form ">=N" asks for; any other form is not judged. */
export function nodeMajorNeeded(range: string | undefined): number | undefined {
  const match = range === undefined ? null : /^\s*>=\s*v?(\d+)(?:\.\d+){0,2}\s*$/.exec(range)
  return match ? Number(match[1]) : undefined
}

const installedDriver = (): DriverPackage => createRequire(import.meta.url)('better-sqlite3/package.json') as DriverPackage

/**
 * Refuses a better-sqlite3 built for a newer Node than this one, by name, before it opens a file:
 * version 13 asks for Node 22, and on Node 20 its first open ends the process (a segmentation
 * fault, no message). npm installs it there all the same, with a warning.
 */
export function requireDriverFitsNode(driver: DriverPackage = installedDriver(), node: string = process.versions.node): void {
  const needed = nodeMajorNeeded(driver.engines?.node)
  if (needed === undefined || Number(node.split('.')[0]) >= needed) return
  throw new Error(
    `better-sqlite3 ${driver.version} needs Node ${needed} or later, and this is Node ${node}: its first open would end the ` +
      'process; install a version built for this Node (better-sqlite3@12 runs on Node 20)',
  )
}
