/** What a shopper's browser does in 3-D Secure 2, as plain form posts to the sandbox's pages. */
const decode = (token: string) => JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Record<string, string>
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const postForm = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' })

/** The 3DS Method step; the page's `threeDSResult` for payment-details. */
export async function runThreeDSMethod(fingerprintToken: string): Promise<string> {
  const token = decode(fingerprintToken)
  const data = base64url({
    threeDSServerTransID: token.threeDSServerTransID,
    threeDSMethodNotificationURL: token.threeDSMethodNotificationURL,
  })
  await postForm(token.threeDSMethodUrl!, { threeDSMethodData: data })
  await postForm(token.threeDSMethodNotificationURL!, { threeDSMethodData: data })
  return Buffer.from(JSON.stringify({ threeDSCompInd: 'Y', threeDSServerTransID: token.threeDSServerTransID })).toString('base64')
}

/** The challenge, answered; the page's `threeDSResult` for payment-details. */
export async function answerChallenge(challengeToken: string, answer: string): Promise<string> {
  const token = decode(challengeToken)
  const creq = base64url({
    threeDSServerTransID: token.threeDSServerTransID,
    acsTransID: token.acsTransID,
    messageVersion: token.messageVersion,
    messageType: 'CReq',
    challengeWindowSize: '02',
  })
  await postForm(token.acsURL!, { creq })
  const answered = await postForm(new URL('/threeds/acs/answer', token.acsURL).toString(), { creq, answer })
  const cres = /name="cres" value="([^"]+)"/.exec(await answered.text())?.[1]
  if (!cres) throw new Error('the ACS gave no CRes')
  const notification = await (await postForm(token.threeDSNotificationURL!, { cres })).text()
  const transStatus = /"transStatus":"([A-Z])"/.exec(notification)?.[1]
  return Buffer.from(JSON.stringify({ transStatus, threeDSServerTransID: token.threeDSServerTransID })).toString('base64')
}
