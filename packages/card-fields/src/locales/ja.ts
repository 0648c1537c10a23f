import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: '有効期限を MM/YY の形式で入力してください。',
  characters: '数字のみを使用してください。',
  format: '年を YY の形式で入力してください。',
  month: '月は 01 から 12 の間で入力してください。',
  expired: 'このカードは有効期限が切れています。',
  'too-far-ahead': '有効期限の年を確認してください。',
  invalid: '有効期限を MM/YY の形式で入力してください。',
}

/** Japanese (`ja`): card-fields' words for `@card-jwe/card-fields/locales/ja`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'カード番号を入力してください。',
      characters: '数字のみを使用してください。',
      brand: 'この種類のカードはご利用いただけません。',
      luhn: 'カード番号を確認してください。',
      length: 'カード番号が不完全です。',
      invalid: 'カード番号を確認してください。',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: '有効期限の月を入力してください。',
      invalid: '有効期限の月を確認してください。',
    },
    expiryYear: {
      ...EXPIRY,
      required: '有効期限の年を入力してください。',
      format: '年を YY または YYYY の形式で入力してください。',
      invalid: '有効期限の年を確認してください。',
    },
    securityCode: {
      required: 'セキュリティコードを入力してください。',
      characters: '数字のみを使用してください。',
      length: 'セキュリティコードが不完全です。',
      invalid: 'セキュリティコードを確認してください。',
    },
    holderName: {
      characters: '名前に数字は使用できません。',
      length: '名前が長すぎます。',
      invalid: '名前を確認してください。',
    },
  },
  securityCodeLabel: (code) =>
    code ? `セキュリティコード（${code.name}、${code.size} 桁）` : code === null ? 'セキュリティコードは不要です' : 'セキュリティコード',
})
