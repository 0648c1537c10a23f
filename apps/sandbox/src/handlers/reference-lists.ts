import { authenticate } from '../authenticate.js'
import { json } from '../http/json.js'
import { COUNTRIES, INDUSTRY_CODES } from '../reference-data/lists.js'
import type { SandboxContext } from '../context.js'
import type { RequestContext } from '../http/handler.js'

/** GET /shopplatform/processor/countries (shape not shown): `[{code, name}]`, ISO 3166-1 alpha-2. */
export async function countries(c: RequestContext, context: SandboxContext): Promise<Response> {
  await authenticate(c, context)
  return json(COUNTRIES)
}

/** GET /shopplatform/processor/industry-codes (shape not shown): `[{code, description}]`, merchant category codes. */
export async function industryCodes(c: RequestContext, context: SandboxContext): Promise<Response> {
  await authenticate(c, context)
  return json(INDUSTRY_CODES)
}
