import { ConnectContractorRequestSchema } from '@card-jwe/payment-validator'
import { authenticate } from '../authenticate.js'
import { notFound } from '../errors.js'
import { validBody } from '../http/parse-body.js'
import { json } from '../http/json.js'
import { accountOf, contractorAnswer } from '../merchant-store.js'
import type { SandboxContext } from '../context.js'
import type { RequestContext } from '../http/handler.js'

/** GET /shopplatform/processor/backoffice-user-contractors: the account's contractors; `[]` when none. */
export async function listContractors(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  const rows = context.merchants.contractorsOfAccount(accountOf(shop))
  return json(rows.map(contractorAnswer))
}

/** PUT /shopplatform/processor/contractor `{contractorId}`: makes one of the account's contractors current. */
export async function connectContractor(c: RequestContext, context: SandboxContext): Promise<Response> {
  const shop = await authenticate(c, context)
  const account = accountOf(shop)
  const { contractorId } = validBody(c, ConnectContractorRequestSchema, 'contractor')
  const row = context.merchants.contractorOfAccount(contractorId, account)
  if (!row) throw notFound('contractor')
  context.shops.setContractor(shop.shop_id, row.contractor_id)
  return json({ contractorId: row.contractor_id, status: 'connected' })
}
