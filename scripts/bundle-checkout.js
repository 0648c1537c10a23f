// The whole checkout page a shop ships with @card-jwe/checkout: the package (with its English words)
// over card-fields, checkout-actions, card-jwe and browser-info, imported by package name as a
// shop's page imports them (built packages; measured by bundle-size.mjs).
export { mountCheckout } from '@card-jwe/checkout'
