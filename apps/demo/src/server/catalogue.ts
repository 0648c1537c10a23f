/**
 * The demo shop's products: prices in minor units (EUR cents), tax included; `taxPercentage` in basis
 * points, the Dutch VAT rates (9 % on food, 21 % otherwise).
 */
export const CATALOGUE = Object.freeze([
  Object.freeze({ sku: 'tea-sencha', name: 'Sencha green tea, 100 g', price: 1250, taxPercentage: 900 }),
  Object.freeze({ sku: 'mug-stone', name: 'Stoneware mug', price: 1800, taxPercentage: 2100 }),
  Object.freeze({ sku: 'kettle-gooseneck', name: 'Gooseneck kettle', price: 4999, taxPercentage: 2100 }),
])
export const SHOP_CURRENCY = 'EUR'
