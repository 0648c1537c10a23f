/**
 * `@card-jwe/card-fields/core` has no words built in: it says what the page passes (a German page
 * ships German only), and refuses to start without them rather than fail later at the first error.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { attachCardFields } from '../src/core/index.ts'
import { messages as german } from '../src/locales/de.ts'

function form() {
  const element = document.body.appendChild(document.createElement('form'))
  onTestFinished(() => element.remove())
  const input = (id: string) => element.appendChild(Object.assign(document.createElement('input'), { id, type: 'text' }))
  return {
    number: input('number'),
    expiry: input('expiry'),
    securityCode: input('cvc'),
    error: element.appendChild(document.createElement('p')),
  }
}

describe('card-fields without built-in words (the core entry)', () => {
  it('shows the words it was given', () => {
    const { error, ...inputs } = form()
    const fields = attachCardFields({ fields: inputs, errors: { number: error }, messages: german })
    onTestFinished(() => fields.destroy())
    fields.validate()
    expect(error.textContent).toBe(german.errors.number.required)
  })

  it('refuses to attach without words, naming the option', () => {
    const { error: _error, ...inputs } = form()
    expect(() => attachCardFields({ fields: inputs } as unknown as Parameters<typeof attachCardFields>[0])).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARGUMENT', message: 'messages: required' }),
    )
  })
})
