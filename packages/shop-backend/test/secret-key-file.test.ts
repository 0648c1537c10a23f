import { mkdtemp, readdir, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadOrCreateSecretKey } from '../src/node/index.js'

describe('loadOrCreateSecretKey', () => {
  it('instances starting together on one new key file all get one key, in a file of mode 0600, with nothing beside it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'secret-key-'))
    const path = join(dir, 'secrets', 'payments.key')
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateSecretKey(path)))
    const hex = keys.map((k) => Buffer.from(k).toString('hex'))
    expect(new Set(hex).size).toBe(1)
    expect(keys[0]).toHaveLength(32)
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect(await readdir(join(dir, 'secrets'))).toEqual(['payments.key'])
    // Read again later: the same key.
    expect(Buffer.from(await loadOrCreateSecretKey(path)).toString('hex')).toBe(hex[0])
  })

  it('refuses a file that does not hold a 256-bit key, by its path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'secret-key-'))
    const path = join(dir, 'payments.key')
    await writeFile(path, 'c2hvcnQ=')
    await expect(loadOrCreateSecretKey(path)).rejects.toThrow(`${path}: not a 256-bit key`)
  })
})
