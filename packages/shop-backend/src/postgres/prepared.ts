import type pg from 'pg'

/** Statement names by text: the ledger's statements are prepared once per connection, not parsed and planned per call. */
const statementNames = new Map<string, string>()

/** A named (prepared) query for `text`; the same text always gets the same name in this process. */
export function prepared(text: string, values: readonly unknown[]): pg.QueryConfig {
  let name = statementNames.get(text)
  if (name === undefined) {
    name = `card_jwe_ledger_${statementNames.size + 1}`
    statementNames.set(text, name)
  }
  return { name, text, values: [...values] }
}
