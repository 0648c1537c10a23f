import { completeShopperStep } from '@card-jwe/sandbox'

/**
 * What a shopper's browser does in the 3-D Secure and redirect flows, as plain form posts over
 * HTTP (the Chromium test does the same through the real pages).
 */
/** The `token` of a threeDS2 action, or the `url` of a redirect action; fails loudly when absent. */
export function actionField(response: { action?: Record<string, unknown> | undefined }, field: 'token' | 'url'): string {
  const value = response.action?.[field]
  if (typeof value !== 'string') throw new Error(`expected an action with a ${field}`)
  return value
}

export function decodeToken(token: string): Record<string, string> {
  return JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Record<string, string>
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

async function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' })
}

/** The browser posts threeDSMethodData to the 3DS Method page, which hands it on to the notification page. */
export async function runThreeDSMethod(fingerprintToken: string): Promise<string> {
  const { details } = await completeShopperStep({ type: 'threeDS2', subtype: 'fingerprint', token: fingerprintToken })
  return (details as { threeDSResult: string }).threeDSResult
}

/** The browser posts the CReq to the ACS, the shopper answers, the CRes goes to the notification URL. */
export async function answerChallenge(challengeToken: string, answer: string): Promise<{ threeDSResult: string; page: string }> {
  const token = decodeToken(challengeToken)
  const creq = base64url({
    threeDSServerTransID: token.threeDSServerTransID,
    acsTransID: token.acsTransID,
    messageVersion: token.messageVersion,
    messageType: 'CReq',
    challengeWindowSize: '02',
  })
  const page = await (await postForm(token.acsURL!, { creq })).text()
  const answered = await postForm(new URL('/threeds/acs/answer', token.acsURL).toString(), { creq, answer })
  const cres = /name="cres" value="([^"]+)"/.exec(await answered.text())?.[1]
  if (!cres) throw new Error('the ACS gave no CRes')
  const notification = await (await postForm(token.threeDSNotificationURL!, { cres })).text()
  const transStatus = /"transStatus":"([A-Z])"/.exec(notification)?.[1]
  return {
    threeDSResult: Buffer.from(JSON.stringify({ transStatus, threeDSServerTransID: token.threeDSServerTransID })).toString('base64'),
    page,
  }
}

/** The shopper approves or cancels on the bank page and comes back with redirectResult. */
export async function decideOnBankPage(url: string, decision: 'approve' | 'cancel' | 'decline'): Promise<string> {
  const page = await fetch(url)
  if (!page.ok) throw new Error(`bank page answered ${page.status}`)
  const back = await postForm(`${url}/${decision}`, {})
  const location = back.headers.get('location')
  if (back.status !== 303 || !location) throw new Error(`bank decision answered ${back.status}`)
  return new URL(location).searchParams.get('redirectResult')!
}
