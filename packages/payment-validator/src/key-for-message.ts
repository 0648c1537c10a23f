/**
 * A key as a message may name it: the key when it is a plain name, else `[key]`. The sender chooses
 * unknown keys (a body's, a query's), and a card number, code or expiry used as a key is still card
 * data: a name with three or more digits in all, in a row or not (`a1b2c3`, `exp12-27`), is not shown.
 */
export function keyForMessage(key: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(key) && (key.match(/\d/g)?.length ?? 0) < 3 ? key : '[key]'
}
