import { expect } from 'vitest'
import type { LedgerStore } from '../../src/store/ledger-store.js'

const at = '2026-01-01T00:00:00.000Z'

/**
 * A captured payment and its open refund as a database before migration 6 held them (no `line_items`
 * column): plain SQL both dialects run, without values to bind.
 */
export const ROWS_BEFORE_LINE_ITEMS = `
INSERT INTO attempts (id, order_id, number, idempotency_key, state, version, currency, value, method_type, fingerprint,
  psp_reference, captured_value, created_at, updated_at)
VALUES ('old:1', 'old', 1, 'key-old-1', 'captured', 3, 'EUR', 2800, 'scheme', '${'f'.repeat(64)}', 'PSPOLD1', 2800, '${at}', '${at}');
INSERT INTO modifications (id, order_id, attempt_id, kind, currency, value, idempotency_key, state, version, created_at, updated_at)
VALUES ('refund-old-1', 'old', 'old:1', 'refund', 'EUR', 800, 'key-refund-old-1', 'requested', 1, '${at}', '${at}');
`

/** After the upgrade: the old rows read as before, without lines; a refund by line is stored with its lines. */
export async function expectLineItemsAfterUpgrade(store: LedgerStore): Promise<void> {
  const old = await store.findAttempt('old:1')
  expect(old).toMatchObject({ state: 'captured', capturedValue: 2800, pspReference: 'PSPOLD1' })
  expect(old?.lineItems).toBeUndefined()
  const open = await store.findModification('refund-old-1')
  expect(open).toMatchObject({ kind: 'refund', state: 'requested', amount: { currency: 'EUR', value: 800 } })
  expect(open?.lineItems).toBeUndefined()
  // Nor does it say whether it asked for the rest: a plain call judges it by the rest as it was before it.
  expect(open?.askedForRest).toBeUndefined()
  const byLine = { ...open!, id: 'refund-new-1', idempotencyKey: 'key-refund-new-1', lineItems: [{ id: 'tea', quantity: 1 }] }
  expect(await store.insertModification(byLine)).toBe(true)
  expect((await store.findModification('refund-new-1'))?.lineItems).toEqual([{ id: 'tea', quantity: 1 }])
}
