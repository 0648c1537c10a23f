/**
 * Where each published package's npm page points: `repository` (with its folder as `directory`),
 * `homepage` (its README in the repository) and `bugs` (the repository's issues), all naming one
 * repository. The address is written in every package.json (docs/decisions.md, "Where the packages
 * point"); to move it, change every one, and this test says which disagree.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PUBLISHED, root } from './shop-project.ts'

interface PackageJson {
  readonly name: string
  readonly private?: boolean
  readonly repository?: unknown
  readonly homepage?: unknown
  readonly bugs?: unknown
}

const read = (folder: string) => JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as PackageJson

/** Every package of the workspace's folders (packages/*, apps/*) that is not private: what `pnpm publish -r` publishes. */
const publishable = ['packages', 'apps'].flatMap((parent) =>
  readdirSync(join(root, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${parent}/${entry.name}`)
    .filter((folder) => {
      try {
        return read(folder).private !== true
      } catch {
        return false
      }
    }),
)

/** `git+https://github.com/OWNER/NAME.git` as the repository's web address, `https://github.com/OWNER/NAME`. */
function webAddress(gitUrl: string): string {
  const match = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+?)\.git$/.exec(gitUrl)
  if (!match) throw new Error(`${gitUrl}: not git+https://github.com/OWNER/NAME.git`)
  return match[1]!
}

describe('the published package.json files', () => {
  it('are the packages the tarball tests pack', () => {
    expect(publishable.sort()).toEqual(PUBLISHED.map((p) => p.folder).sort())
  })

  it.each(publishable)('%s has repository (with its folder), homepage and bugs', (folder) => {
    const pkg = read(folder)
    expect(pkg.repository).toEqual({ type: 'git', url: expect.any(String), directory: folder })
    const { url } = pkg.repository as { url: string }
    const web = webAddress(url)
    expect(pkg.homepage).toBe(`${web}/tree/main/${folder}#readme`)
    expect(pkg.bugs).toBe(`${web}/issues`)
  })

  it('all name the same repository', () => {
    const addresses = publishable.map((folder) => `${(read(folder).repository as { url?: string } | undefined)?.url} (${folder})`)
    const distinct = new Set(addresses.map((line) => line.replace(/ \(.*\)$/, '')))
    expect(distinct.size, addresses.join('\n')).toBe(1)
  })

  it('name the address docs/decisions.md gives', () => {
    const decisions = readFileSync(join(root, 'docs/decisions.md'), 'utf8')
    const url = (read('packages/card-jwe').repository as { url: string }).url
    expect(decisions).toContain(webAddress(url))
  })
})
