/**
 * Focuses the bank's challenge frame once checkout-actions adds it to `area` (checkout-actions
 * titles it), so keyboard and screen-reader shoppers answer at once. Returns the observer, to stop watching.
 */
export function focusFrame(area: HTMLElement): MutationObserver {
  const observer = new MutationObserver(() => {
    const frame = area.querySelector('iframe')
    if (frame) {
      observer.disconnect()
      frame.focus()
    }
  })
  observer.observe(area, { childList: true, subtree: true })
  return observer
}
