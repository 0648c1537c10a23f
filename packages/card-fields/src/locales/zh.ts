import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: '请按 MM/YY 格式输入有效期。',
  characters: '只能使用数字。',
  format: '请按 YY 格式输入年份。',
  month: '月份必须在 01 到 12 之间。',
  expired: '此卡已过期。',
  'too-far-ahead': '请检查有效期年份。',
  invalid: '请按 MM/YY 格式输入有效期。',
}

/** Chinese, simplified script (also for every `zh-*`) (`zh`): card-fields' words for `@card-jwe/card-fields/locales/zh`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: '请输入卡号。',
      characters: '只能使用数字。',
      brand: '不接受此类卡。',
      luhn: '请检查卡号。',
      length: '卡号不完整。',
      invalid: '请检查卡号。',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: '请输入有效期月份。',
      invalid: '请检查有效期月份。',
    },
    expiryYear: {
      ...EXPIRY,
      required: '请输入有效期年份。',
      format: '请按 YY 或 YYYY 格式输入年份。',
      invalid: '请检查有效期年份。',
    },
    securityCode: {
      required: '请输入安全码。',
      characters: '只能使用数字。',
      length: '安全码不完整。',
      invalid: '请检查安全码。',
    },
    holderName: {
      characters: '姓名中不能包含数字。',
      length: '姓名太长。',
      invalid: '请检查姓名。',
    },
  },
  securityCodeLabel: (code) => (code ? `安全码（${code.name}，${code.size} 位数字）` : code === null ? '无需安全码' : '安全码'),
})
