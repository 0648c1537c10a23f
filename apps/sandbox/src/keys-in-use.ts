import { IDEMPOTENCY_KEY_HEADER } from '@card-jwe/service-client/idempotency'
import { SandboxError } from './errors.js'
import type { IdempotencyClaim } from './idempotency.js'

/**
 * Payment keys whose first request is still being made (its card decrypted, its row stored). The
 * widely used checkout APIs refuse a second request under such a key, 409 `IDEMPOTENCY_KEY_IN_USE`,
 * rather than run it beside the first; once the first is stored a repeat gets its answer. In memory:
 * the sandbox is one process, and a restart ends every request it was making.
 */
export interface KeysInUse {
  /** Runs `make` holding the claim's key (none: nothing to hold); 409 while another request holds it. */
  run<T>(claim: IdempotencyClaim | undefined, make: () => Promise<T>): Promise<T>
  /** Whether a payment under this key scope is being made now. */
  has(scope: string): boolean
}

export function createKeysInUse(): KeysInUse {
  const running = new Set<string>()
  return {
    has: (scope) => running.has(scope),
    async run(claim, make) {
      if (!claim) return make()
      if (running.has(claim.scope))
        throw new SandboxError(
          'IDEMPOTENCY_KEY_IN_USE',
          `${IDEMPOTENCY_KEY_HEADER}: a payment under this key is being made; try again shortly`,
        )
      running.add(claim.scope)
      try {
        return await make()
      } finally {
        running.delete(claim.scope)
      }
    },
  }
}
