/**
 * Accessibility checks run in the demo's page (each function is sent to the browser whole, so it
 * uses nothing from outside itself). They name elements by id, never by a value.
 */

/** Visible form controls with no accessible name (no label, aria-label(ledby), button text or title). */
export function unnamedControls(): string[] {
  const textOf = (ids: string) =>
    ids
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
      .join(' ')
      .trim()
  return [...document.querySelectorAll<HTMLInputElement>('input, select, textarea, button')]
    .filter((control) => control.getClientRects().length > 0 && control.type !== 'hidden')
    .filter((control) => {
      const labelledBy = control.getAttribute('aria-labelledby')
      const labels = [...(control.labels ?? [])].map((label) => label.textContent?.trim()).join(' ')
      const own = control.tagName === 'BUTTON' ? control.textContent?.trim() : ''
      return !((labelledBy && textOf(labelledBy)) || control.getAttribute('aria-label')?.trim() || labels.trim() || own || control.title)
    })
    .map((control) => control.id || `${control.tagName.toLowerCase()}[name=${control.name}]`)
}

/**
 * Fields in error whose error is not tied to them (no shown, non-empty element named by
 * aria-errormessage or aria-describedby), and error texts shown that no field points at.
 */
export function untiedErrors(): { fieldsWithoutTheirError: string[]; errorsOfNoField: string[]; fieldsInError: string[] } {
  const invalid = [...document.querySelectorAll<HTMLInputElement>('input[aria-invalid="true"]')]
  const tiedIds = (input: Element) =>
    `${input.getAttribute('aria-errormessage') ?? ''} ${input.getAttribute('aria-describedby') ?? ''}`.split(/\s+/).filter(Boolean)
  const shown = (element: HTMLElement | null) => !!element && element.getClientRects().length > 0 && !!element.textContent?.trim()
  const tied = new Set(invalid.flatMap(tiedIds))
  return {
    fieldsInError: invalid.map((input) => input.id),
    fieldsWithoutTheirError: invalid.filter((input) => !tiedIds(input).some((id) => shown(document.getElementById(id)))).map((i) => i.id),
    errorsOfNoField: [...document.querySelectorAll<HTMLElement>('.error')].filter((e) => shown(e) && !tied.has(e.id)).map((e) => e.id),
  }
}

/** Starts counting what the page writes into its live regions (status, alert, aria-live): each write is one announcement. */
export function countLiveRegionUpdates(): void {
  const updates: string[] = []
  ;(window as unknown as { liveRegionUpdates: string[] }).liveRegionUpdates = updates
  for (const region of document.querySelectorAll('[aria-live], [role="status"], [role="alert"], [role="log"]')) {
    if (region.getAttribute('aria-live') === 'off') continue
    new MutationObserver((records) => {
      for (const record of records) if (record.addedNodes.length > 0 || record.type === 'characterData') updates.push(region.id)
    }).observe(region, { childList: true, characterData: true, subtree: true })
  }
}

/** The live regions written since `countLiveRegionUpdates`, one entry per write (the region's id). */
export function liveRegionUpdates(): string[] {
  return (window as unknown as { liveRegionUpdates?: string[] }).liveRegionUpdates ?? []
}

/**
 * The focusable elements shown, in the DOM's order (the Tab order: the page uses no positive
 * tabindex) and in the order a reader sees them: by row, then along the row in the page's direction.
 */
export function focusOrder(): { dom: string[]; visual: string[]; positiveTabindex: string[] } {
  const focusables = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, iframe, [tabindex]')].filter(
    (e) => e.tabIndex >= 0 && !(e as HTMLButtonElement).disabled && e.getClientRects().length > 0,
  )
  const rtl = getComputedStyle(document.documentElement).direction === 'rtl'
  const name = (e: HTMLElement) => e.id || `${e.tagName.toLowerCase()}:${e.textContent?.trim().slice(0, 30)}`
  const at = (e: HTMLElement) => {
    const box = e.getBoundingClientRect()
    return { top: box.top, along: rtl ? -box.right : box.left }
  }
  // One row: tops within 8 px (a row's inputs align; a label's height apart is a new row).
  const visual = [...focusables].sort((a, b) => {
    const [p, q] = [at(a), at(b)]
    return Math.abs(p.top - q.top) > 8 ? p.top - q.top : p.along - q.along
  })
  return { dom: focusables.map(name), visual: visual.map(name), positiveTabindex: focusables.filter((e) => e.tabIndex > 0).map(name) }
}

/** Inputs of the card form that, focused, show no focus indicator (outline none or 0 wide, no box-shadow). */
export function inputsWithoutFocusIndicator(): string[] {
  const missing: string[] = []
  for (const input of document.querySelectorAll<HTMLInputElement>('#card-form input')) {
    if (input.getClientRects().length === 0) continue
    input.focus()
    const style = getComputedStyle(input)
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0
    if (!outline && style.boxShadow === 'none') missing.push(input.id)
    input.blur()
  }
  return missing
}

/** The 3-D Secure frame: its title, and whether it has the focus. */
export function challengeFrame(): { title: string; focused: boolean } | null {
  const frame = document.querySelector('#threeds iframe')
  return frame ? { title: frame.getAttribute('title') ?? '', focused: document.activeElement === frame } : null
}
