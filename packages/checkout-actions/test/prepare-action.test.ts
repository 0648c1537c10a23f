/** prepareAction: every field of every action checked, each refusal naming the field and the rule. */
import { describe, expect, it } from 'vitest'
import { CheckoutActionError, prepareAction } from '../src/index.ts'

const encode = (value: unknown) => btoa(JSON.stringify(value))
const ID = '3b0e5a4c-0a7c-4d36-9c1e-7f6f4a4f0b11'
const FINGERPRINT = {
  threeDSMethodNotificationURL: 'https://service.example/threeds/method-notification',
  threeDSMethodUrl: 'https://acs.example/method',
  threeDSServerTransID: ID,
}
const CHALLENGE = {
  acsTransID: ID,
  acsURL: 'https://acs.example/acs',
  messageVersion: '2.2.0',
  threeDSNotificationURL: 'https://service.example/threeds/challenge-notification',
  threeDSServerTransID: ID,
}

function refusal(action: unknown): { code: string; message: string } {
  try {
    prepareAction(action)
  } catch (error) {
    expect(error).toBeInstanceOf(CheckoutActionError)
    return { code: (error as CheckoutActionError).code, message: (error as Error).message }
  }
  throw new Error('expected a refusal')
}

describe('prepareAction', () => {
  it('prepares a fingerprint: method data names the transaction and the notification URL', () => {
    const step = prepareAction({ type: 'threeDS2', subtype: 'fingerprint', token: encode(FINGERPRINT) })
    expect(step).toMatchObject({
      kind: 'fingerprint',
      methodUrl: 'https://acs.example/method',
      notificationOrigin: 'https://service.example',
      transactionId: ID,
    })
    const data = JSON.parse(atob((step as { methodData: string }).methodData.replace(/-/g, '+').replace(/_/g, '/')))
    expect(data).toEqual({ threeDSServerTransID: ID, threeDSMethodNotificationURL: FINGERPRINT.threeDSMethodNotificationURL })
  })

  it.each([
    [{ width: 250, height: 400 }, '01'],
    [{ width: 390, height: 640 }, '02'],
    [{ width: 1200, height: 900 }, '03'],
    [{ width: 700, height: 450 }, '04'],
    [{ width: 320, height: 300 }, '05'],
  ])('prepares a challenge sized for a %o container (window %s)', (container, windowSize) => {
    const step = prepareAction({ type: 'threeDS2', subtype: 'challenge', token: encode(CHALLENGE) }, container)
    expect(step).toMatchObject({ kind: 'challenge', acsUrl: 'https://acs.example/acs', windowSize })
  })

  it.each([undefined, '', null])(
    'prepares a fingerprint of an issuer without a 3DS Method (threeDSMethodUrl %j): nothing to run',
    (url) => {
      const token = { threeDSServerTransID: FINGERPRINT.threeDSServerTransID, threeDSMethodUrl: url }
      expect(prepareAction({ type: 'threeDS2', subtype: 'fingerprint', token: encode(token) })).toEqual({
        kind: 'fingerprint',
        transactionId: FINGERPRINT.threeDSServerTransID,
      })
    },
  )

  it.each([
    ['threeDSServerTransID', undefined, 'token.threeDSServerTransID: required'],
    ['threeDSServerTransID', 'x<script>', 'token.threeDSServerTransID: letters, digits and dashes only'],
    ['threeDSMethodUrl', 0, 'token.threeDSMethodUrl: required'],
    ['threeDSMethodUrl', 'javascript:alert(1)', 'token.threeDSMethodUrl: https (http only on loopback)'],
    ['threeDSMethodUrl', 'http://acs.example/method', 'token.threeDSMethodUrl: https (http only on loopback)'],
    ['threeDSMethodUrl', 'https://user:pw@acs.example/', 'token.threeDSMethodUrl: no credentials in the URL'],
    ['threeDSMethodNotificationURL', 'not a url', 'token.threeDSMethodNotificationURL: an absolute URL'],
  ])('refuses a fingerprint token whose %s is %s', (field, value, message) => {
    expect(refusal({ type: 'threeDS2', subtype: 'fingerprint', token: encode({ ...FINGERPRINT, [field]: value }) })).toEqual({
      code: 'ERR_ACTION_INVALID',
      message,
    })
  })

  it.each([
    ['acsTransID', '', 'token.acsTransID: required'],
    ['acsURL', 'data:text/html,hi', 'token.acsURL: https (http only on loopback)'],
    ['messageVersion', '1.0.2', 'token.messageVersion: a 3-D Secure 2 version (2.x.y)'],
    ['threeDSNotificationURL', 42, 'token.threeDSNotificationURL: required'],
  ])('refuses a challenge token whose %s is %s', (field, value, message) => {
    expect(refusal({ type: 'threeDS2', subtype: 'challenge', token: encode({ ...CHALLENGE, [field]: value }) })).toEqual({
      code: 'ERR_ACTION_INVALID',
      message,
    })
  })

  it('allows plain http on loopback only (a local sandbox)', () => {
    expect(prepareAction({ type: 'redirect', url: 'http://127.0.0.1:8790/redirect/x' })).toMatchObject({ kind: 'redirect', method: 'GET' })
    expect(refusal({ type: 'redirect', url: 'http://bank.example/' }).message).toBe('action.url: https (http only on loopback)')
  })

  it('checks redirects: method, field names and values', () => {
    expect(prepareAction({ type: 'redirect', method: 'POST', url: 'https://bank.example/pay', data: { PaReq: 'abc', MD: 'x' } })).toEqual({
      kind: 'redirect',
      method: 'POST',
      url: 'https://bank.example/pay',
      data: { PaReq: 'abc', MD: 'x' },
    })
    expect(refusal({ type: 'redirect', method: 'PUT', url: 'https://bank.example/' }).message).toBe('action.method: GET or POST')
    expect(refusal({ type: 'redirect', url: 'https://bank.example/', data: { 'a b': 'x' } }).message).toBe(
      'action.data: field names of letters, digits and _ . - only',
    )
    expect(refusal({ type: 'redirect', url: 'https://bank.example/', data: { a: 1 } }).message).toBe(
      'action.data.a: a string of at most 16384 characters',
    )
  })

  it('refuses what it does not handle, and tokens that are not base64 JSON objects', () => {
    expect(refusal({ type: 'sdk' })).toEqual({ code: 'ERR_ACTION_UNSUPPORTED', message: 'action.type: redirect or threeDS2' })
    expect(refusal({ type: 'threeDS2', subtype: 'other', token: encode(CHALLENGE) }).code).toBe('ERR_ACTION_UNSUPPORTED')
    expect(refusal({ type: 'threeDS2', subtype: 'challenge', token: '%%%' })).toEqual({
      code: 'ERR_ACTION_INVALID',
      message: 'action.token: base64 JSON object',
    })
    expect(refusal({ type: 'threeDS2', subtype: 'challenge', token: btoa('[1]') }).message).toBe('action.token: base64 JSON object')
    expect(refusal(null)).toEqual({ code: 'ERR_ACTION_INVALID', message: 'action: an object' })
  })
})
