/**
 * Rotating the `secretKey` that seals the shop's secrets at rest: instances move to a new key with
 * the old one among `previousSecretKeys`, then `resealSecrets()` seals everything under the new key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSecretBox, generateSecretKey } from '../src/index.js'
import type { LedgerStore } from '../src/store/ledger-store.js'
import { startShop, startWorld, type TestShop, type World } from './support/shop.js'

let world: World
const shops: TestShop[] = []
beforeAll(async () => {
  world = await startWorld()
})
afterAll(async () => {
  for (const shop of shops.reverse()) await shop.close()
  await world.close()
})

async function paysOnce(shop: TestShop): Promise<unknown> {
  return (await shop.post('/api/payments', await shop.cardSubmission(shop.createOrder()))).body.resultCode
}

describe('rotating the secretKey', () => {
  it('an instance on the new key with the old among previousSecretKeys pays; after resealSecrets the new key alone does', async () => {
    const before = await startShop(world)
    shops.push(before)
    expect(await paysOnce(before)).toBe('Authorised')
    const sealedBefore = (await before.store.getSetting('service_secret'))!

    const newKey = generateSecretKey()
    const rotating = await startShop(world, {
      connect: false,
      storePath: before.storePath,
      secretKey: newKey,
      previousSecretKeys: [before.secretKey],
    })
    shops.push(rotating)
    expect(await paysOnce(rotating)).toBe('Authorised')
    expect(await rotating.backend.resealSecrets()).toEqual({ resealed: ['service_secret'] })
    expect(await rotating.backend.resealSecrets()).toEqual({ resealed: [] })

    const sealedAfter = (await rotating.store.getSetting('service_secret'))!
    expect(sealedAfter).not.toBe(sealedBefore)
    const [oldBox, newBox] = await Promise.all([createSecretBox(before.secretKey), createSecretBox(newKey)])
    expect(await newBox.open(sealedAfter)).toBe(await oldBox.open(sealedBefore))
    await expect(oldBox.open(sealedAfter)).rejects.toThrow('cannot be opened with this secretKey')

    const after = await startShop(world, { connect: false, storePath: before.storePath, secretKey: newKey })
    shops.push(after)
    expect(await paysOnce(after)).toBe('Authorised')
  })

  it('never writes an older secret over one the service pushed while the reseal ran', async () => {
    const oldKey = generateSecretKey()
    const newKey = generateSecretKey()
    const [oldBox, newBox] = await Promise.all([createSecretBox(oldKey), createSecretBox(newKey)])
    let pushed = false
    const shop = await startShop(world, {
      connect: false,
      secretKey: newKey,
      previousSecretKeys: [oldKey],
      // The push lands between the reseal's read and its write (another instance's batch endpoint).
      wrapStore: (store: LedgerStore) => ({
        ...store,
        async replaceSetting(id, expected, value) {
          if (id === 'service_secret' && !pushed) {
            pushed = true
            await store.putSetting(id, await newBox.seal('pushed-secret'))
          }
          return store.replaceSetting(id, expected, value)
        },
      }),
    })
    shops.push(shop)
    await shop.store.putSetting('service_secret', await oldBox.seal('older-secret'))
    expect(await shop.backend.resealSecrets()).toEqual({ resealed: [] })
    expect(await newBox.open((await shop.store.getSetting('service_secret'))!)).toBe('pushed-secret')
  })
})
