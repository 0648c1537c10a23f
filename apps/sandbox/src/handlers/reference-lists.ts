import { authenticate } from '../authenticate.js'
import { json } from '../http/respond.js'
import { COUNTRIES, INDUSTRY_CODES } from '../reference-data/lists.js'
import type { SandboxContext } from '../context.js'
import type { Params, SandboxRequest, SandboxResponse } from '../http/types.js'

/** GET /shopplatform/processor/countries (shape not shown): `[{code, name}]`, ISO 3166-1 alpha-2. */
export async function countries(request: SandboxRequest, _params: Params, context: SandboxContext): Promise<SandboxResponse> {
  await authenticate(request, context)
  return json(COUNTRIES)
}

/** GET /shopplatform/processor/industry-codes (shape not shown): `[{code, description}]`, merchant category codes. */
export async function industryCodes(request: SandboxRequest, _params: Params, context: SandboxContext): Promise<SandboxResponse> {
  await authenticate(request, context)
  return json(INDUSTRY_CODES)
}
