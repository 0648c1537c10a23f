/** What a shopper's browser does in 3-D Secure 2, as the sandbox's own helper does it without a browser. */
import { CHALLENGE_ANSWER, completeShopperStep } from '@card-jwe/sandbox'

const threeDSResultOf = ({ details }: Awaited<ReturnType<typeof completeShopperStep>>) =>
  (details as { threeDSResult: string }).threeDSResult

/** The 3DS Method step; the page's `threeDSResult` for payment-details. */
export async function runThreeDSMethod(fingerprintToken: string): Promise<string> {
  return threeDSResultOf(await completeShopperStep({ type: 'threeDS2', subtype: 'fingerprint', token: fingerprintToken }))
}

/** The challenge, answered (`CHALLENGE_ANSWER` approves, anything else refuses); the page's `threeDSResult`. */
export async function answerChallenge(challengeToken: string, answer: string): Promise<string> {
  const choice = answer === CHALLENGE_ANSWER ? 'approve' : 'refuse'
  return threeDSResultOf(await completeShopperStep({ type: 'threeDS2', subtype: 'challenge', token: challengeToken }, choice))
}
