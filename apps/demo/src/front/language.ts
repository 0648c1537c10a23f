/**
 * The checkout's language: English, German or Arabic, from `?lang=` (the language form submits it),
 * or, back from the bank, the one the shopper left in. The flow's words and card-fields' come from
 * the packages' locale entries; the shop's own words (labels, buttons, its announcements) from the
 * table here. Arabic makes the page right to left; card-fields keeps the number, expiry and code
 * left to right.
 */
import type { CheckoutMessages } from '@card-jwe/checkout'
import { messages as arabic } from '@card-jwe/checkout/locales/ar'
import { messages as german } from '@card-jwe/checkout/locales/de'
import { messages as english } from '@card-jwe/checkout/locales/en'
import { pickLocale, type CardFieldMessages } from '@card-jwe/card-fields'
import { messages as arabicFields } from '@card-jwe/card-fields/locales/ar'
import { messages as germanFields } from '@card-jwe/card-fields/locales/de'
import { messages as englishFields } from '@card-jwe/card-fields/locales/en'
import { SHOP_WORDS, type ShopWords } from './shop-words.js'
import { tabMemory } from './browser-memory.js'

/** sessionStorage key: the language of the page that left for the bank, for the page it returns to. */
const LANGUAGE_AT_BANK = 'language-at-bank'

export type LanguageTag = 'en' | 'de' | 'ar'

/** The page's one language: the flow's words, the card fields' and the shop's own. */
export interface PageLanguage {
  readonly tag: LanguageTag
  readonly messages: CheckoutMessages
  readonly cardMessages: CardFieldMessages
  readonly words: ShopWords
}

const PACKAGE_WORDS: Readonly<Record<LanguageTag, Pick<PageLanguage, 'messages' | 'cardMessages'>>> = {
  en: { messages: english, cardMessages: englishFields },
  de: { messages: german, cardMessages: germanFields },
  ar: { messages: arabic, cardMessages: arabicFields },
}

/** Sets the page's language and direction and the shop's words on the page; returns every word the page needs. */
export function applyLanguage(): PageLanguage {
  const params = new URLSearchParams(location.search)
  const asked = params.get('lang') ?? (params.has('redirectResult') ? tabMemory.recall(LANGUAGE_AT_BANK) : null)
  const picked = asked ? pickLocale([asked]) : 'en'
  const tag: LanguageTag = picked in PACKAGE_WORDS ? (picked as LanguageTag) : 'en'
  const words = SHOP_WORDS[tag]
  document.documentElement.lang = tag
  document.documentElement.dir = tag === 'ar' ? 'rtl' : 'ltr'
  for (const [id, text] of Object.entries(words.texts)) document.getElementById(id)!.textContent = text
  document.querySelector<HTMLInputElement>('#card-expiry')!.placeholder = words.expiryPlaceholder
  document.querySelector<HTMLSelectElement>('#language')!.value = tag
  return { tag, ...PACKAGE_WORDS[tag], words }
}

/** Keeps the language for the page the bank sends the shopper back to (its address has no `lang`). */
export function keepLanguageForReturn(tag: LanguageTag): void {
  tabMemory.remember(LANGUAGE_AT_BANK, tag)
}

/** The page's address without the bank's answer, its language kept. */
export function addressAfterReturn(tag: LanguageTag): string {
  return tag === 'en' ? '/' : `/?lang=${tag}`
}
