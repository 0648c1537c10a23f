export { startShop } from './start-shop.js'
export type { RunningShop, ShopOptions } from './start-shop.js'
