/** @jsxImportSource preact */
/**
 * The Preact example (apps/preact-example) in a real browser: card-fields attached in an effect,
 * real keys typed, the card encrypted on submit and read back by the testkit's decryptor; and when
 * the component unmounts, card-fields lets go of the inputs.
 */
import { CardForm } from '@card-jwe/preact-example'
import { createCardDecryptor } from '@card-jwe/testkit/decryptor'
import { testCardExpiry } from '@card-jwe/testkit/test-cards'
import { testCertificates } from '@card-jwe/testkit/vitest'
import { importCertificate } from 'card-jwe'
import { render } from 'preact'
import { act } from 'preact/test-utils'
import { afterEach, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'

let root: HTMLElement
/** Always ahead of the clock (the suite also runs years ahead). */
const expiry = testCardExpiry()

afterEach(() => {
  render(null, root)
  root.remove()
})

async function mount(onEncrypted: (jwe: string) => void): Promise<void> {
  const certificate = await importCertificate(testCertificates().valid.certificatePem)
  root = document.createElement('div')
  document.body.append(root)
  await act(() => render(<CardForm certificate={certificate} onEncrypted={onEncrypted} />, root))
}

/** Pay, from the keyboard: the runner's own page lies over the test frame and can take a pointer click. */
async function pay(): Promise<void> {
  root.querySelector('button')!.focus()
  await act(() => userEvent.keyboard('{Enter}'))
}

const field = (label: string) =>
  [...root.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith(label))!.control as HTMLInputElement

it('formats as typed, refuses an incomplete card, then encrypts exactly what was typed', async () => {
  const sent: string[] = []
  await mount((jwe) => void sent.push(jwe))
  await userEvent.type(field('Card number'), '4111111145551142')
  expect(field('Card number').value).toBe('4111 1111 4555 1142')
  await userEvent.type(field('Expiry date'), expiry.month)
  await pay()
  expect(sent).toEqual([])
  expect(root.querySelector('#cf-expiry-error')!.textContent).toBe('Enter the expiry date as MM/YY.')
  expect(document.activeElement).toBe(field('Expiry date'))

  await userEvent.type(field('Expiry date'), expiry.year.slice(2))
  await userEvent.type(field('Security code'), '737')
  await pay()
  await expect.poll(() => sent.length).toBe(1)
  const { card } = await (await createCardDecryptor(testCertificates().valid.privateKeyPem)).decrypt(sent[0]!)
  expect(card).toMatchObject({ number: '4111111145551142', expiryMonth: expiry.month, expiryYear: expiry.year, cvc: '737' })
  await expect.poll(() => field('Card number').value).toBe('')
})

it('lets go of the inputs when the component unmounts', async () => {
  await mount(() => undefined)
  const number = field('Card number')
  expect(number.getAttribute('aria-describedby')).toBe('cf-number-error')
  await act(() => render(null, root))
  expect(number.isConnected).toBe(false)
  expect(number.hasAttribute('aria-describedby')).toBe(false)
})
