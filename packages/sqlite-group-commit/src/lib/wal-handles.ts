import { closeSync, openSync } from 'node:fs'

/** Syncs a group asks for at once: a commit made while one runs has its own queued on the thread behind it. */
export const MAX_SYNCS_IN_FLIGHT = 2

/**
 * One handle a sync slot, each its own open file: Linux reports a write-back error once to each open
 * file, so two syncs sharing one could split an error and one of them succeed over lost pages.
 */
export function openWal(walPath: string): number[] {
  const handles: number[] = []
  try {
    for (let slot = 0; slot < MAX_SYNCS_IN_FLIGHT; slot++) handles.push(openSync(walPath, 'r'))
  } catch (error) {
    for (const handle of handles) closeSync(handle)
    throw error
  }
  return handles
}
