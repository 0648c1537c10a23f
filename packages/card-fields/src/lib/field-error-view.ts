/**
 * One field's error as assistive technology meets it: the text in the shop's error element,
 * `aria-invalid` on the input and `aria-describedby` pointing at the error (WAI-ARIA 1.2, 6.7).
 */
export class FieldErrorView {
  private shown = ''
  private readonly addedDescribedBy: boolean

  constructor(
    private readonly input: HTMLInputElement,
    private readonly error: HTMLElement | undefined,
  ) {
    if (error && !error.id) error.id = `${input.id || input.name || 'card-field'}-error`
    const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
    this.addedDescribedBy = !!error && !ids.includes(error.id)
    if (error && this.addedDescribedBy) input.setAttribute('aria-describedby', [...ids, error.id].join(' '))
  }

  /** Shows `message` ('' for none). True when what is shown changed. */
  show(message: string): boolean {
    if (message === this.shown) return false
    this.shown = message
    if (message) this.input.setAttribute('aria-invalid', 'true')
    else this.input.removeAttribute('aria-invalid')
    if (this.error) {
      this.error.textContent = message
      this.error.hidden = !message
    }
    return true
  }

  /** Removes what the view added to the shop's elements. */
  detach(): void {
    this.show('')
    if (!this.error || !this.addedDescribedBy) return
    const ids = (this.input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id && id !== this.error!.id)
    if (ids.length) this.input.setAttribute('aria-describedby', ids.join(' '))
    else this.input.removeAttribute('aria-describedby')
  }
}
