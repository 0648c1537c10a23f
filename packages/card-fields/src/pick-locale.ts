/**
 * A locale card-fields has words for, each an entry of its own: `@card-jwe/card-fields/locales/<tag>`
 * (what {@link pickLocale} returns).
 */
export type CardFieldsLocale = 'en' | 'nl' | 'de' | 'fr' | 'es' | 'it' | 'pt' | 'pl' | 'sv' | 'da' | 'nb' | 'fi' | 'cs' | 'ja' | 'zh' | 'ar'

// Every locale's tag, then `no` (Norwegian's macrolanguage), which Bokmål serves; each a whole tag
// or a tag's language subtag. One pattern rather than a list: the root entry's bytes are budgeted.
const LANGUAGE = /^(?:(en|nl|de|fr|es|it|pt|pl|sv|da|nb|fi|cs|ja|zh|ar)|no)\b/i

/**
 * The locale to show, from the shopper's languages in order of preference (`navigator.languages`,
 * or the tags of an `Accept-Language`): the first that card-fields has, by the whole tag or by its
 * language (`fr-CH` -> `fr`, `pt-BR` -> `pt`, `zh-Hant-TW` -> `zh`, `nb-NO` and `no` -> `nb`); `en`
 * when none fits. Case does not matter.
 */
export function pickLocale(requested: readonly string[]): CardFieldsLocale {
  for (const tag of requested) {
    const match = LANGUAGE.exec(tag)
    if (match) return (match[1]?.toLowerCase() ?? 'nb') as CardFieldsLocale
  }
  return 'en'
}
