/**
 * Vitest's locators hand their Playwright-style selectors ("internal:label=\"Card number\"i") to
 * every provider; engines without Playwright's selector engine resolve the forms our tests use
 * here: CSS, and a label. The element found is marked so the driver can address it by CSS.
 */

/** Runs in the test frame: marks the element the selector names and returns a CSS selector for it. */
export function markTarget(selector: string): string {
  let element: Element | null | undefined
  const label = /^internal:label="((?:[^"\\]|\\.)*)"([is]?)$/.exec(selector)
  if (label) {
    const text = JSON.parse(`"${label[1]}"`) as string
    const exact = label[2] === 's'
    const matches = (l: HTMLLabelElement) => {
      const own = (l.textContent ?? '').replace(/\s+/g, ' ').trim()
      return exact ? own === text : own.toLowerCase().includes(text.toLowerCase())
    }
    element = [...document.querySelectorAll<HTMLInputElement>('input, textarea, select, button')].find((e) =>
      [...(e.labels ?? [])].some(matches),
    )
  } else if (!selector.startsWith('internal:')) {
    element = document.querySelector(selector)
  } else {
    throw new Error(`selector not supported outside Playwright: ${selector}`)
  }
  if (!element) throw new Error(`no element for ${selector}`)
  element.setAttribute('data-engine-target', '')
  for (const other of document.querySelectorAll('[data-engine-target]')) if (other !== element) other.removeAttribute('data-engine-target')
  return '[data-engine-target]'
}
