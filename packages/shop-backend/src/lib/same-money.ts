/** Two amounts are the same money: the same currency and the same minor units. */
export const sameMoney = (
  a: { readonly currency: string; readonly value: number },
  b: { readonly currency: string; readonly value: number },
) => a.currency === b.currency && a.value === b.value
