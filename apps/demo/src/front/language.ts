/**
 * The checkout's language: English, German or Arabic, from `?lang=` (the language form submits it).
 * card-fields' words come from its locale entry; the card form's own labels from the table here.
 * Arabic makes the page right to left; card-fields keeps the number, expiry and code left to right.
 */
import { pickLocale, type CardFieldMessages } from '@card-jwe/card-fields'
import { messages as arabic } from '@card-jwe/card-fields/locales/ar'
import { messages as german } from '@card-jwe/card-fields/locales/de'

interface PageLanguage {
  readonly dir: 'ltr' | 'rtl'
  /** card-fields' words; English, its default, when absent. */
  readonly messages?: CardFieldMessages
  /** The card form's labels and headings, by element id. */
  readonly texts: Readonly<Record<string, string>>
  readonly expiryPlaceholder: string
}

const LANGUAGES: Readonly<Record<'en' | 'de' | 'ar', PageLanguage>> = {
  en: {
    dir: 'ltr',
    texts: {
      'checkout-title': 'Payment',
      'card-number-label': 'Card number',
      'card-expiry-label': 'Expiry date (MM/YY)',
      'card-holder-label': 'Name on card (optional)',
    },
    expiryPlaceholder: 'MM/YY',
  },
  de: {
    dir: 'ltr',
    messages: german,
    texts: {
      'checkout-title': 'Zahlung',
      'card-number-label': 'Kartennummer',
      'card-expiry-label': 'Ablaufdatum (MM/JJ)',
      'card-holder-label': 'Name auf der Karte (optional)',
    },
    expiryPlaceholder: 'MM/JJ',
  },
  ar: {
    dir: 'rtl',
    messages: arabic,
    texts: {
      'checkout-title': 'الدفع',
      'card-number-label': 'رقم البطاقة',
      'card-expiry-label': 'تاريخ الانتهاء (MM/YY)',
      'card-holder-label': 'الاسم على البطاقة (اختياري)',
    },
    expiryPlaceholder: 'MM/YY',
  },
}

/** Sets the page's language and direction and the card form's words; returns card-fields' words. */
export function applyLanguage(): CardFieldMessages | undefined {
  const asked = new URLSearchParams(location.search).get('lang')
  const picked = asked ? pickLocale([asked]) : 'en'
  const tag = picked in LANGUAGES ? (picked as keyof typeof LANGUAGES) : 'en'
  const language = LANGUAGES[tag]
  document.documentElement.lang = tag
  document.documentElement.dir = language.dir
  for (const [id, text] of Object.entries(language.texts)) document.getElementById(id)!.textContent = text
  document.querySelector<HTMLInputElement>('#card-expiry')!.placeholder = language.expiryPlaceholder
  document.querySelector<HTMLSelectElement>('#language')!.value = tag
  return language.messages
}
