import type { CheckoutMessages } from '../messages.js'

/** Japanese (`ja`): the flow's words for `@card-jwe/checkout/locales/ja`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'お支払いを処理しています…',
  fix: '強調表示された項目を修正してください。',
  challenge: 'カード会社がお支払いの確認を求めています。',
  redirecting: '銀行のページに移動しています…',
  paid: 'お支払いが承認されました。ありがとうございます。',
  refused: 'カードが承認されませんでした。請求はありません。別のカードをお試しください。',
  notFinished: 'お支払いは完了していません。請求はありません。もう一度お試しください。',
  pending: 'お支払いを確認中です。しばらくしてから再読み込みしてください。二重請求はありません。',
  unavailable: '現在お支払いできません。しばらくしてからお試しください。二重請求はありません。',
  offline: 'ショップに接続できません。接続を確認してお試しください。',
  card: 'カード情報を確認してお試しください。',
  order: 'ご注文内容が変更されました。再読み込みしてご確認ください。',
  ended: 'このお支払いは終了しています。再読み込みして結果をご確認ください。',
  failed: 'お支払いができませんでした。請求はありません。もう一度お試しください。',
})
