import { ConnectContractorRequestSchema } from '@card-jwe/payment-validator'
import { authenticate } from '../authenticate.js'
import { notFound } from '../errors.js'
import { validBody } from '../http/body.js'
import { json } from '../http/respond.js'
import { accountOf, contractorAnswer, type ContractorRow } from '../merchant-store.js'
import type { SandboxContext } from '../context.js'
import type { Params, SandboxRequest, SandboxResponse } from '../http/types.js'

/** GET /shopplatform/processor/backoffice-user-contractors: the account's contractors; `[]` when none. */
export async function listContractors(request: SandboxRequest, _params: Params, context: SandboxContext): Promise<SandboxResponse> {
  const shop = await authenticate(request, context)
  const rows = context.db.prepare('SELECT * FROM contractors WHERE account_id = ? ORDER BY rowid').all(accountOf(shop)) as ContractorRow[]
  return json(rows.map(contractorAnswer))
}

/** PUT /shopplatform/processor/contractor `{contractorId}`: makes one of the account's contractors current. */
export async function connectContractor(request: SandboxRequest, _params: Params, context: SandboxContext): Promise<SandboxResponse> {
  const shop = await authenticate(request, context)
  const account = accountOf(shop)
  const { contractorId } = validBody(request, ConnectContractorRequestSchema, 'contractor')
  const row = context.db.prepare('SELECT * FROM contractors WHERE contractor_id = ? AND account_id = ?').get(contractorId, account) as
    | ContractorRow
    | undefined
  if (!row) throw notFound('contractor')
  context.db.prepare('UPDATE shops SET contractor_id = ? WHERE shop_id = ?').run(row.contractor_id, shop.shop_id)
  return json({ contractorId: row.contractor_id, status: 'connected' })
}
