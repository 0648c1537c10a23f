// PostgreSQL planner workarounds for the group statement (ledger-writes.ts), both measured: the
// repository's BENCHMARKS.md, "PostgreSQL: one plan a connection for the group statement".

/**
 * An array parameter whose length the planner cannot see (a sub-select is not folded into a
 * constant): a plan for a group's values then guesses 10 elements, as the generic plan does, so
 * PostgreSQL keeps the generic plan after five instead of planning every group again (about 0.3 ms
 * each). The outer cast keeps `= ANY(...)` an array comparison.
 */
export const lengthHidden = (parameter: string, type: string): string => `(SELECT ${parameter}::${type}[])::${type}[]`

/** Attempts this process stores before the group statement is planned afresh; doubled each time. */
const REPLAN_AFTER = 1000

/**
 * The group statement's text, renamed each time the attempts this process stored double. A plan made
 * on a young ledger joins by reading the whole attempts table (cheapest then) and keeps doing so as it
 * grows, until autovacuum's next ANALYZE; a new name is prepared, so planned, for the table as it is.
 */
export function replannedText(text: string): { current(): string; count(inserted: boolean): boolean } {
  // The text is kept, not rebuilt a group: the same string is one Map lookup in `prepared`.
  let current = text
  let stored = 0
  let replanAt = REPLAN_AFTER
  return {
    current: () => current,
    count(inserted) {
      if (inserted && ++stored >= replanAt) {
        current = `${text}\n-- planned again after ${replanAt} attempts`
        replanAt *= 2
      }
      return inserted
    },
  }
}
