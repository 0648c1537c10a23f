import type { Hono } from 'hono'
import type { BackendContext } from '../backend-context.js'
import { type ReadinessOptions, readinessOf } from '../health/readiness.js'
import type { HealthPaths } from '../shop-backend-types.js'
import { json } from './answers.js'
import type { BackendEnv } from './backend-env.js'
import { onlyMethod } from './only-method.js'

/**
 * Liveness and readiness for load balancers and Kubernetes probes, unauthenticated (balancers send
 * no credentials), so they answer verdicts and codes only. GET serves HEAD too (Hono).
 */
export function addHealthRoutes(
  app: Hono<BackendEnv>,
  paths: HealthPaths,
  context: BackendContext,
  options: ReadinessOptions,
  hasCertificate: boolean,
): void {
  // Live while the process answers at all: no store read, so a database outage never restarts every instance.
  app.get(paths.live, () => json(200, { status: 'pass' })).all(paths.live, onlyMethod('GET'))
  app
    .get(paths.ready, async () => {
      const readiness = await readinessOf(context, options, hasCertificate)
      return json(readiness.status === 'fail' ? 503 : 200, readiness)
    })
    .all(paths.ready, onlyMethod('GET'))
}
