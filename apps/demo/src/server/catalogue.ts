/** The demo shop's products: prices in minor units (EUR cents). */
export const CATALOGUE = Object.freeze([
  Object.freeze({ sku: 'tea-sencha', name: 'Sencha green tea, 100 g', price: 1250 }),
  Object.freeze({ sku: 'mug-stone', name: 'Stoneware mug', price: 1800 }),
  Object.freeze({ sku: 'kettle-gooseneck', name: 'Gooseneck kettle', price: 4999 }),
])
export const SHOP_CURRENCY = 'EUR'
