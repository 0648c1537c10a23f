// Entry for the shop's server: completes the page's browser data with what only the server sees.
export { completeBrowserInfo, normalizeShopperIp } from './complete-browser-info.js'
export type { ClientBrowserInfo, CompletedBrowserData, ShopperRequest } from './complete-browser-info.js'
