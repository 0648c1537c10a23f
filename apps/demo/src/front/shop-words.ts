/**
 * The shop's own words on the checkout page, in each of its languages: the labels and buttons (by
 * element id) and what the shop itself announces. The payment flow's words and the card fields'
 * come from the packages' locales (language.ts); these are only the shop's.
 */
import type { LanguageTag } from './language.js'
import type { SavedCardWords } from './saved-card-label.js'

export interface ShopWords {
  /** Text of the page's elements, by id. */
  readonly texts: Readonly<Record<string, string>>
  readonly expiryPlaceholder: string
  orderSummary(reference: string, amount: string): string
  pay(amount: string): string
  resultOrder(reference: string, id: number): string
  retryOrder(reference: string): string
  readonly chooseProduct: string
  readonly newCard: string
  readonly tryingAgain: string
  readonly serviceBack: string
  readonly serviceStillDown: string
  readonly shopUnreachable: string
  readonly signedIn: string
  readonly signedOut: string
  /** "Visa ending in 1111, expires 03/2030": absent, the English words. */
  readonly savedCard?: SavedCardWords
}

export const SHOP_WORDS: Readonly<Record<LanguageTag, ShopWords>> = {
  en: {
    texts: {
      'language-label': 'Language',
      'language-change': 'Change',
      'shop-title': 'Your basket',
      'sign-in': 'Sign in as test shopper',
      'sign-in-why': 'to save your card for next time.',
      'signed-in-text': 'Signed in as the test shopper.',
      'account-link': 'Your saved cards',
      'sign-out': 'Sign out',
      'start-checkout': 'Continue to payment',
      'checkout-title': 'Payment',
      'payment-unavailable-text': 'The payment service cannot be reached right now, so nothing can be paid yet. Your order is kept.',
      'retry-service': 'Try again',
      'saved-card-legend': 'Pay with',
      'card-number-label': 'Card number',
      'card-expiry-label': 'Expiry date (MM/YY)',
      'card-holder-label': 'Name on card (optional)',
      'save-card-text': 'Save my card for next time',
      'ideal-or': 'or',
      'pay-ideal': 'pay with iDEAL',
      'klarna-or': 'or',
      'pay-klarna': 'pay later with Klarna',
      'cancel-challenge': 'Cancel this payment',
      'cancel-hint': '(if your bank’s page does not load)',
      'result-order-term': 'Order',
      'result-code-term': 'Result',
      'retry-payment': 'Try another card or method',
      'back-to-shop': 'Back to the shop',
      'not-ready-title': 'The shop is not open yet',
      'not-ready-text': 'This shop has no onboarded store with the payment service yet, so it cannot take payments.',
      'not-ready-owner': 'Shop owner:',
      'not-ready-link': 'connect your account on the admin page',
    },
    expiryPlaceholder: 'MM/YY',
    orderSummary: (reference, amount) => `Order ${reference}: ${amount}`,
    pay: (amount) => `Pay ${amount}`,
    resultOrder: (reference, id) => `${reference} (order ${id})`,
    retryOrder: (reference) => `Order ${reference}: try another card or method.`,
    chooseProduct: 'Choose at least one product.',
    newCard: 'A new card',
    tryingAgain: 'Trying again…',
    serviceBack: 'The payment service is back. You can pay now.',
    serviceStillDown: 'The payment service still cannot be reached. Try again in a moment.',
    shopUnreachable: 'The shop cannot be reached. Try again in a moment.',
    signedIn: 'Signed in as the test shopper.',
    signedOut: 'Signed out.',
  },
  de: {
    texts: {
      'language-label': 'Sprache',
      'language-change': 'Ändern',
      'shop-title': 'Ihr Warenkorb',
      'sign-in': 'Als Testkunde anmelden',
      'sign-in-why': 'um Ihre Karte für das nächste Mal zu speichern.',
      'signed-in-text': 'Als Testkunde angemeldet.',
      'account-link': 'Ihre gespeicherten Karten',
      'sign-out': 'Abmelden',
      'start-checkout': 'Weiter zur Zahlung',
      'checkout-title': 'Zahlung',
      'payment-unavailable-text':
        'Der Zahlungsdienst ist gerade nicht erreichbar, daher kann noch nichts bezahlt werden. Ihre Bestellung bleibt erhalten.',
      'retry-service': 'Erneut versuchen',
      'saved-card-legend': 'Bezahlen mit',
      'card-number-label': 'Kartennummer',
      'card-expiry-label': 'Ablaufdatum (MM/JJ)',
      'card-holder-label': 'Name auf der Karte (optional)',
      'save-card-text': 'Meine Karte für das nächste Mal speichern',
      'ideal-or': 'oder',
      'pay-ideal': 'mit iDEAL bezahlen',
      'klarna-or': 'oder',
      'pay-klarna': 'später mit Klarna bezahlen',
      'cancel-challenge': 'Diese Zahlung abbrechen',
      'cancel-hint': '(falls die Seite Ihrer Bank nicht lädt)',
      'result-order-term': 'Bestellung',
      'result-code-term': 'Ergebnis',
      'retry-payment': 'Andere Karte oder Zahlungsart versuchen',
      'back-to-shop': 'Zurück zum Shop',
      'not-ready-title': 'Der Shop ist noch nicht geöffnet',
      'not-ready-text': 'Dieser Shop hat noch keinen eingerichteten Store beim Zahlungsdienst und kann daher keine Zahlungen annehmen.',
      'not-ready-owner': 'Für den Shopbetreiber:',
      'not-ready-link': 'verbinden Sie Ihr Konto auf der Verwaltungsseite',
    },
    expiryPlaceholder: 'MM/JJ',
    orderSummary: (reference, amount) => `Bestellung ${reference}: ${amount}`,
    pay: (amount) => `${amount} bezahlen`,
    resultOrder: (reference, id) => `${reference} (Bestellung ${id})`,
    retryOrder: (reference) => `Bestellung ${reference}: Versuchen Sie eine andere Karte oder Zahlungsart.`,
    chooseProduct: 'Wählen Sie mindestens ein Produkt.',
    newCard: 'Eine neue Karte',
    tryingAgain: 'Neuer Versuch…',
    serviceBack: 'Der Zahlungsdienst ist wieder da. Sie können jetzt bezahlen.',
    serviceStillDown: 'Der Zahlungsdienst ist noch nicht erreichbar. Versuchen Sie es gleich noch einmal.',
    shopUnreachable: 'Der Shop ist nicht erreichbar. Versuchen Sie es gleich noch einmal.',
    signedIn: 'Als Testkunde angemeldet.',
    signedOut: 'Abgemeldet.',
    savedCard: (brand, lastFour, expiry) =>
      `${brand}${lastFour ? ` mit Endziffern ${lastFour}` : ''}${expiry ? `, gültig bis ${expiry}` : ''}`,
  },
  ar: {
    texts: {
      'language-label': 'اللغة',
      'language-change': 'تغيير',
      'shop-title': 'سلة التسوق',
      'sign-in': 'تسجيل الدخول كمتسوق تجريبي',
      'sign-in-why': 'لحفظ بطاقتك للمرة القادمة.',
      'signed-in-text': 'تم تسجيل الدخول كمتسوق تجريبي.',
      'account-link': 'بطاقاتك المحفوظة',
      'sign-out': 'تسجيل الخروج',
      'start-checkout': 'المتابعة إلى الدفع',
      'checkout-title': 'الدفع',
      'payment-unavailable-text': 'تعذّر الوصول إلى خدمة الدفع الآن، لذا لا يمكن الدفع بعد. طلبك محفوظ.',
      'retry-service': 'حاول مرة أخرى',
      'saved-card-legend': 'الدفع باستخدام',
      'card-number-label': 'رقم البطاقة',
      'card-expiry-label': 'تاريخ الانتهاء (MM/YY)',
      'card-holder-label': 'الاسم على البطاقة (اختياري)',
      'save-card-text': 'احفظ بطاقتي للمرة القادمة',
      'ideal-or': 'أو',
      'pay-ideal': 'الدفع عبر iDEAL',
      'klarna-or': 'أو',
      'pay-klarna': 'الدفع لاحقًا عبر Klarna',
      'cancel-challenge': 'إلغاء هذا الدفع',
      'cancel-hint': '(إذا لم تُحمَّل صفحة البنك)',
      'result-order-term': 'الطلب',
      'result-code-term': 'النتيجة',
      'retry-payment': 'جرّب بطاقة أو طريقة دفع أخرى',
      'back-to-shop': 'العودة إلى المتجر',
      'not-ready-title': 'المتجر غير مفتوح بعد',
      'not-ready-text': 'لا يملك هذا المتجر بعد متجرًا مُعدًّا لدى خدمة الدفع، لذا لا يمكنه قبول المدفوعات.',
      'not-ready-owner': 'لصاحب المتجر:',
      'not-ready-link': 'اربط حسابك في صفحة الإدارة',
    },
    expiryPlaceholder: 'MM/YY',
    orderSummary: (reference, amount) => `الطلب ${reference}: ${amount}`,
    pay: (amount) => `ادفع ${amount}`,
    resultOrder: (reference, id) => `${reference} (الطلب ${id})`,
    retryOrder: (reference) => `الطلب ${reference}: جرّب بطاقة أو طريقة دفع أخرى.`,
    chooseProduct: 'اختر منتجًا واحدًا على الأقل.',
    newCard: 'بطاقة جديدة',
    tryingAgain: 'جارٍ المحاولة مرة أخرى…',
    serviceBack: 'عادت خدمة الدفع. يمكنك الدفع الآن.',
    serviceStillDown: 'لا يزال تعذّر الوصول إلى خدمة الدفع. حاول مرة أخرى بعد قليل.',
    shopUnreachable: 'تعذّر الوصول إلى المتجر. حاول مرة أخرى بعد قليل.',
    signedIn: 'تم تسجيل الدخول كمتسوق تجريبي.',
    signedOut: 'تم تسجيل الخروج.',
    savedCard: (brand, lastFour, expiry) => `${brand}${lastFour ? ` تنتهي بـ ${lastFour}` : ''}${expiry ? `، صالحة حتى ${expiry}` : ''}`,
  },
}
