/**
 * The admin's store setting of when money is taken, for new orders: when the merchant captures it
 * from the order table, at payment, or a number of hours after payment (the back end sends it as
 * `captureDelayHours`; the capture then arrives from the payment service's feed).
 */
import { api } from './api.js'

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!

function show(hours: number | null): void {
  $<HTMLInputElement>('#capture-manual').checked = hours === null
  $<HTMLInputElement>('#capture-at-once').checked = hours === 0
  $<HTMLInputElement>('#capture-later').checked = hours !== null && hours > 0
  if (hours !== null && hours > 0) $<HTMLInputElement>('#capture-hours').value = String(hours)
}

function chosen(): number | null {
  if ($<HTMLInputElement>('#capture-at-once').checked) return 0
  if ($<HTMLInputElement>('#capture-later').checked) return Number($<HTMLInputElement>('#capture-hours').value)
  return null
}

const said = (hours: number | null) =>
  hours === null ? 'when you capture it' : hours === 0 ? 'at payment' : `${hours} hours after payment`

/** Shows the saved setting and saves a new one; `status` says what happened. */
export async function startCaptureTiming(status: HTMLElement): Promise<void> {
  $('#save-capture-timing').addEventListener('click', () => {
    void api<{ captureDelayHours: number | null }>('/api/admin/capture-timing', { captureDelayHours: chosen() })
      .then((saved) => {
        show(saved.captureDelayHours)
        status.textContent = `New orders: money is taken ${said(saved.captureDelayHours)}.`
      })
      .catch((error: unknown) => (status.textContent = `When money is taken: ${(error as Error).message}`))
  })
  show((await api<{ captureDelayHours: number | null }>('/api/admin/capture-timing')).captureDelayHours)
}
