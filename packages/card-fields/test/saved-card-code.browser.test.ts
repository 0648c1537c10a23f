/**
 * The saved-card mode in a real browser with real key presses: only the code field, its length and
 * label from the saved card's brand, and what it gives encrypted into the code-only JWE, opened by
 * the reference decryptor.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { encryptSecurityCode, importCertificate } from 'card-jwe'
import { createCardDecryptor } from '@card-jwe/testkit/decryptor'
import { testCertificates } from '@card-jwe/testkit/vitest'
import { CardFieldsError, MESSAGES_EN, type CardFieldChange, type SavedCardCode, type SavedCardCodeOptions } from '../src/index.ts'
import { messages as germanMessages } from '../src/locales/de.ts'
import { attachSavedCardCode } from '../src/saved-card-code/index.ts'

let form: HTMLFormElement
let saved: SavedCardCode | undefined

beforeEach(() => {
  form = document.createElement('form')
  document.body.append(form)
})

afterEach(() => {
  saved?.destroy()
  saved = undefined
  form.remove()
})

function add<K extends 'input' | 'div' | 'label'>(tag: K, id: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  element.id = id
  if (element instanceof HTMLInputElement) element.type = 'text'
  form.append(element)
  return element
}

function attach(brand: string, extra: Partial<SavedCardCodeOptions> = {}) {
  const securityCodeContainer = add('div', 'cvc-container')
  const securityCodeLabel = add('label', 'cvc-label')
  securityCodeLabel.htmlFor = 'cvc'
  const securityCode = add('input', 'cvc')
  securityCodeContainer.append(securityCodeLabel, securityCode)
  const error = add('div', 'cvc-error')
  const announcer = add('div', 'announcer')
  saved = attachSavedCardCode({
    brand,
    securityCode,
    error,
    announcer,
    securityCodeLabel,
    securityCodeContainer,
    messages: MESSAGES_EN,
    ...extra,
  })
  return { securityCode, securityCodeLabel, securityCodeContainer, error, announcer, saved }
}

describe('a saved card’s security code', () => {
  it('takes four digits for American Express, labelled as its CID', async () => {
    const { securityCode, securityCodeLabel, saved } = attach('amex')
    expect(saved.needsCode).toBe(true)
    expect(securityCodeLabel.textContent).toBe('Security code (CID, 4 digits)')
    await userEvent.type(securityCode, '7a37399')
    expect(securityCode.value).toBe('7373')
    expect(saved.validate()).toBe(true)
    expect(saved.values()).toEqual({ securityCode: '7373', brand: 'amex' })
  })

  it('takes three digits for Visa, and blames a short code on blur with the field’s own label', async () => {
    const { securityCode, securityCodeLabel, error, announcer, saved } = attach('visa')
    expect(securityCodeLabel.textContent).toBe('Security code (CVV, 3 digits)')
    await userEvent.type(securityCode, '7373')
    expect(securityCode.value).toBe('737')
    await userEvent.clear(securityCode)
    await userEvent.type(securityCode, '73')
    securityCode.blur()
    expect(error.textContent).toBe('The security code is incomplete.')
    expect(securityCode.getAttribute('aria-invalid')).toBe('true')
    expect(announcer.textContent).toBe('Security code (CVV, 3 digits): The security code is incomplete.')
    expect(saved.validate()).toBe(false)
    expect(document.activeElement).toBe(securityCode)
  })

  it('hides the field for a brand without a code and needs none', async () => {
    const { securityCodeContainer, securityCodeLabel, saved } = attach('bcmc')
    expect(saved.needsCode).toBe(false)
    expect(securityCodeContainer.hidden).toBe(true)
    expect(securityCodeLabel.textContent).toBe('No security code needed')
    expect(saved.validate()).toBe(true)
    const noField = attachSavedCardCode({ brand: 'bancontact', messages: MESSAGES_EN })
    expect(noField.needsCode).toBe(false)
    noField.destroy()
  })

  it('takes three or four digits for a brand card-jwe does not know', async () => {
    const { securityCode, securityCodeLabel, saved } = attach('some-new-scheme')
    expect(securityCodeLabel.textContent).toBe('Security code')
    await userEvent.type(securityCode, '73737')
    expect(securityCode.value).toBe('7373')
    expect(saved.validate()).toBe(true)
  })

  it('gives what encryptSecurityCode turns into the code-only JWE', async () => {
    const certificates = testCertificates()
    const certificate = await importCertificate(certificates.valid.certificatePem)
    const decryptor = await createCardDecryptor(certificates.valid.privateKeyPem)
    const { securityCode, saved } = attach('amex')
    await userEvent.type(securityCode, '7373')
    const jwe = await encryptSecurityCode(saved.values(), certificate)
    const { securityCode: payload } = await decryptor.decryptSecurityCode(jwe, { codeSize: 4 })
    expect(Object.keys(payload)).toEqual(['cvc', 'generationtime'])
    expect(payload.cvc).toBe('7373')
  })

  it('hands callbacks the verdict and the brand, never the code', async () => {
    const changes: CardFieldChange[] = []
    const { securityCode } = attach('amex', { onChange: (change) => changes.push(change) })
    await userEvent.type(securityCode, '7373')
    expect(changes.at(-1)).toEqual({
      field: 'securityCode',
      verdict: { isValid: true, isPotentiallyValid: true },
      brand: 'american-express',
    })
    expect(JSON.stringify(changes)).not.toContain('7373')
  })

  it('keeps its brand when cleared', async () => {
    const { securityCode, securityCodeLabel, saved } = attach('amex')
    await userEvent.type(securityCode, '73')
    saved.clear()
    expect(securityCode.value).toBe('')
    expect(securityCodeLabel.textContent).toBe('Security code (CID, 4 digits)')
    await userEvent.type(securityCode, '73737')
    expect(securityCode.value).toBe('7373')
  })

  it('refuses a call without the code field for a brand that has one, or without a brand', () => {
    expect(() => attachSavedCardCode({ brand: 'visa', messages: MESSAGES_EN })).toThrow(CardFieldsError)
    expect(() => attachSavedCardCode({ brand: 'visa', messages: MESSAGES_EN })).toThrow(/^securityCode: required/)
    expect(() => attachSavedCardCode({} as SavedCardCodeOptions)).toThrow(/^brand: /)
  })

  it('refuses a call without the words: the entry has none of its own', () => {
    const securityCode = add('input', 'cvc')
    expect(() => attachSavedCardCode({ brand: 'visa', securityCode } as SavedCardCodeOptions)).toThrow(/^messages: required$/)
  })

  it('says the words of the locale it is given', async () => {
    const { securityCode, securityCodeLabel, error } = attach('amex', { messages: germanMessages })
    expect(securityCodeLabel.textContent).toBe('Sicherheitscode (CID, 4 Ziffern)')
    await userEvent.type(securityCode, '73')
    securityCode.blur()
    expect(error.textContent).toBe(germanMessages.errors.securityCode.length)
  })
})
