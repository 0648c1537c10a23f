/**
 * `@card-jwe/card-fields/core`: the card fields with no words of their own, for a page that passes
 * its locale's (`@card-jwe/card-fields/locales/<tag>`); the root entry is the same with English built in.
 */
export { attachCardFields } from './attach-card-fields.js'
export type { CardFieldsInOptions } from './attach-card-fields.js'
