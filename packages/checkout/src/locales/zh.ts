import type { CheckoutMessages } from '../messages.js'

/** Chinese (Simplified) (`zh`): the flow's words for `@card-jwe/checkout/locales/zh`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: '正在处理您的付款…',
  fix: '请更正标出的字段。',
  challenge: '您的银行要求您确认付款。',
  redirecting: '正在前往您的银行…',
  paid: '付款已授权。谢谢！',
  refused: '您的卡被拒绝，未扣款。请换一张卡。',
  notFinished: '付款未完成，未扣款。您可以重试。',
  pending: '正在确认付款。请稍后刷新此页面；绝不会重复扣款。',
  unavailable: '目前无法付款。请稍后重试；绝不会重复扣款。',
  offline: '无法连接商店。请检查网络连接后重试。',
  card: '请检查您的卡信息后重试。',
  order: '您的订单已更改。请刷新页面并核对。',
  ended: '此付款已结束。请刷新页面查看结果。',
  failed: '付款未能完成，未扣款。请重试。',
})
