/**
 * One field as assistive technology and the page's direction meet it: the text in the shop's error element,
 * `aria-invalid` on the input and `aria-describedby` pointing at the error (WAI-ARIA 1.2, 6.7).
 */
export interface FieldErrorView {
  /** Shows `message` ('' for none). True when what is shown changed. */
  show(message: string): boolean
  /** Removes what the view added to the shop's elements. */
  detach(): void
}

/**
 * `leftToRight`: a field of digits, given `dir="ltr"` (unless the shop set a direction), so in a
 * right-to-left page (Arabic) the number's groups and the caret keep their order. Set whatever the
 * page's direction now: a page may switch language later, and in a left-to-right page it changes nothing.
 */
export function fieldErrorView(input: HTMLInputElement, error: HTMLElement | undefined, leftToRight: boolean): FieldErrorView {
  let shown = ''
  const addedDir = leftToRight && !input.dir
  if (addedDir) input.dir = 'ltr'
  // The shop's own aria-describedby, put back on detach.
  const describedBy = input.getAttribute('aria-describedby')
  if (error) {
    error.id ||= `${input.id || input.name || 'card-field'}-error`
    if (!` ${describedBy} `.includes(` ${error.id} `)) input.setAttribute('aria-describedby', `${describedBy ?? ''} ${error.id}`.trim())
  }
  const show = (message: string) => {
    if (message === shown) return false
    shown = message
    if (message) input.setAttribute('aria-invalid', 'true')
    else input.removeAttribute('aria-invalid')
    if (error) {
      error.textContent = message
      error.hidden = !message
    }
    return true
  }
  return {
    show,
    detach() {
      show('')
      if (addedDir) input.removeAttribute('dir')
      if (describedBy === null) input.removeAttribute('aria-describedby')
      else input.setAttribute('aria-describedby', describedBy)
    },
  }
}
