/** The highest rate of arriving payments each path holds (open-load.mjs runs each rate). */

/**
 * An arrival rate a path holds: every payment answered 2xx, 99% of them within HELD_P99_MS of when
 * they were due. A path that falls behind builds a queue, and its latencies grow past any bound.
 */
export const HELD_P99_MS = 250
const holds = (result) => result.errors + result.non2xx === 0 && result.p99Ms <= HELD_P99_MS

/**
 * The highest arrival rate each path holds (`runs[name](rate)` resolves to an open-load result): rates
 * from 0.7 of `base` up by tenths, the paths in turns at each, until one is not held; then one rate
 * halfway between its last held and its first not held. A rate is not held when two runs in a row miss
 * it. A path not holding 0.7 of `base` holds 0; one holding 1.6 of it (`notHeld` undefined) at least that.
 */
export async function capacities(runs, base) {
  const found = Object.fromEntries(Object.keys(runs).map((name) => [name, { held: undefined, notHeld: undefined, steps: [] }]))
  const once = async (name, rate) => {
    const result = await runs[name](rate)
    const { perSecond, p50Ms, p99Ms, acknowledged } = result
    found[name].steps.push({ rate, perSecond, p50Ms, p99Ms, acknowledged, held: holds(result) })
    return result
  }
  // A rate not held is run once more: one pause (a checkpoint, a vacuum) does not end the search.
  const run = async (name, rate) => {
    let result = await once(name, rate)
    if (!holds(result)) result = await once(name, rate)
    const path = found[name]
    if (holds(result) && rate > (path.held?.rate ?? 0)) path.held = result
    if (!holds(result) && rate < (path.notHeld?.rate ?? Number.POSITIVE_INFINITY)) path.notHeld = result
  }
  for (let tenth = 7; tenth <= 16; tenth++) {
    const names = Object.keys(runs).filter((name) => found[name].notHeld === undefined)
    if (names.length === 0) break
    // Turned every other step: neither path always runs second, on the sandbox the other just filled.
    for (const name of tenth % 2 === 0 ? names : names.reverse()) await run(name, Math.round((tenth / 10) * base))
  }
  for (const [name, path] of Object.entries(found))
    if (path.held && path.notHeld) await run(name, Math.round((path.held.rate + path.notHeld.rate) / 2))
  return found
}
