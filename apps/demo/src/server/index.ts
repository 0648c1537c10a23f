export { startShop } from './start-shop.js'
export type { RunningShop, ShopOptions } from './start-shop.js'
export { createFailureThrottle, failureDelayMs, FIRST_FAILURE_DELAY_MS, MAX_FAILURE_DELAY_MS } from './failure-throttle.js'
export type { FailureThrottle } from './failure-throttle.js'
