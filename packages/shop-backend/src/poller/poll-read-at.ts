import { type BackendContext, SETTING } from '../backend-context.js'
import { errorCodeOf } from '../store/error-code.js'

/** Settings every instance's readiness reads, written best effort: the next poll writes them again. */
async function note(context: Pick<BackendContext, 'store' | 'log'>, what: string, settings: Record<string, string>): Promise<void> {
  try {
    await context.store.putSettings(settings)
  } catch (error) {
    const code = String(errorCodeOf(error))
    context.log(`poller: noting ${what} failed (${code})`, 'warn', { component: 'poller', code })
  }
}

/**
 * Notes in the store that the feed was just read, so every instance's readiness and lag gauge see
 * how long ago any instance read it (and that the service took the shop's signature). Best effort:
 * the poll itself committed, and the next one notes it again.
 */
export const notePollRead = (context: Pick<BackendContext, 'store' | 'now' | 'log'>): Promise<void> =>
  note(context, "the feed's read time", { [SETTING.pollReadAt]: context.now().toISOString(), [SETTING.pollRefused]: '' })

/** Milliseconds since any instance last read the feed, or undefined when none has yet. */
export async function pollLagMs(context: Pick<BackendContext, 'store' | 'now'>): Promise<number | undefined> {
  const readAt = await context.store.getSetting(SETTING.pollReadAt)
  const at = readAt === undefined ? Number.NaN : Date.parse(readAt)
  return Number.isNaN(at) ? undefined : Math.max(0, context.now().getTime() - at)
}

/** Notes that the service refused a poll for the shop's signature: every instance's readiness says so. Best effort. */
export const notePollRefused = (context: Pick<BackendContext, 'store' | 'log'>, serviceCode: string): Promise<void> =>
  note(context, "the service's refusal", { [SETTING.pollRefused]: serviceCode })
