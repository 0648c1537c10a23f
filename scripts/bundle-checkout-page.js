// What a checkout page loads from this toolkit: card-jwe and browser-info together.
export * from '../packages/card-jwe/src/index.ts'
export * from '../packages/browser-info/src/index.ts'
