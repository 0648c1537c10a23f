import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'أدخل تاريخ الانتهاء بالصيغة MM/YY.',
  characters: 'استخدم الأرقام فقط.',
  format: 'أدخل السنة بالصيغة YY.',
  month: 'يجب أن يكون الشهر من 01 إلى 12.',
  expired: 'انتهت صلاحية هذه البطاقة.',
  'too-far-ahead': 'تحقق من سنة الانتهاء.',
  invalid: 'أدخل تاريخ الانتهاء بالصيغة MM/YY.',
}

/** Arabic (a right-to-left page; the card inputs stay left-to-right) (`ar`): card-fields' words for `@card-jwe/card-fields/locales/ar`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'أدخل رقم البطاقة.',
      characters: 'استخدم الأرقام فقط.',
      brand: 'هذا النوع من البطاقات غير مقبول.',
      luhn: 'تحقق من رقم البطاقة.',
      length: 'رقم البطاقة غير مكتمل.',
      invalid: 'تحقق من رقم البطاقة.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'أدخل شهر الانتهاء.',
      invalid: 'تحقق من شهر الانتهاء.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'أدخل سنة الانتهاء.',
      format: 'أدخل السنة بالصيغة YY أو YYYY.',
      invalid: 'تحقق من سنة الانتهاء.',
    },
    securityCode: {
      required: 'أدخل رمز الأمان.',
      characters: 'استخدم الأرقام فقط.',
      length: 'رمز الأمان غير مكتمل.',
      invalid: 'تحقق من رمز الأمان.',
    },
    holderName: {
      characters: 'لا تستخدم أرقامًا في الاسم.',
      length: 'الاسم طويل جدًا.',
      invalid: 'تحقق من الاسم.',
    },
  },
  securityCodeLabel: (code) =>
    code ? `رمز الأمان (${code.name}، ${code.size} أرقام)` : code === null ? 'لا حاجة إلى رمز الأمان' : 'رمز الأمان',
})
