import { afterAll, beforeAll } from 'vitest'
import { startServiceProxy, type ServiceProxy } from '../../packages/shop-backend/test/support/service-proxy.js'
import { startDemoStack, type DemoStack } from './demo-stack.js'

/**
 * For a test file: one demo stack whose shop reaches the sandbox through a test proxy (to lose its
 * answers, or be down), started before the first test and closed after the last.
 */
export function proxiedDemoStack(options: Omit<NonNullable<Parameters<typeof startDemoStack>[0]>, 'serviceUrlFor'> = {}) {
  let stack: DemoStack | undefined
  let proxy: ServiceProxy | undefined
  beforeAll(async () => {
    stack = await startDemoStack({
      ...options,
      serviceUrlFor: async (url) => {
        proxy = await startServiceProxy(url)
        return proxy.baseUrl
      },
    })
  }, 60_000)
  afterAll(async () => {
    await stack?.close()
    await proxy?.close()
  })
  return {
    get stack(): DemoStack {
      return stack!
    },
    get proxy(): ServiceProxy {
      return proxy!
    },
  }
}
