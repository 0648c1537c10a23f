// The whole custom checkout a shop ships: card fields, the 3-D Secure and redirect actions, the
// encryption and the browser data, imported by package name as a shop's page imports them
// (built packages; measured by bundle-size.mjs).
export { attachCardFields } from '@card-jwe/card-fields'
export { handleAction } from '@card-jwe/checkout-actions'
export { encryptCard, importCertificate, toPaymentMethod } from 'card-jwe'
export { collectBrowserInfo } from '@card-jwe/browser-info'
