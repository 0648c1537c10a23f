import { type BackendContext, SETTING } from '../backend-context.js'
import { errorCodeOf } from '../store/error-code.js'

/**
 * Notes in the store that the feed was just read, so every instance's readiness and lag gauge see
 * how long ago any instance read it. Best effort: the poll itself committed, and the next one notes
 * it again.
 */
export async function notePollRead(context: Pick<BackendContext, 'store' | 'now' | 'log'>): Promise<void> {
  try {
    await context.store.putSetting(SETTING.pollReadAt, context.now().toISOString())
  } catch (error) {
    const code = String(errorCodeOf(error))
    context.log(`poller: noting the feed's read time failed (${code})`, 'warn', { component: 'poller', code })
  }
}

/** Milliseconds since any instance last read the feed, or undefined when none has yet. */
export async function pollLagMs(context: Pick<BackendContext, 'store' | 'now'>): Promise<number | undefined> {
  const readAt = await context.store.getSetting(SETTING.pollReadAt)
  const at = readAt === undefined ? Number.NaN : Date.parse(readAt)
  return Number.isNaN(at) ? undefined : Math.max(0, context.now().getTime() - at)
}
