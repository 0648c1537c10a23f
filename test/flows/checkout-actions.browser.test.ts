/**
 * @card-jwe/checkout-actions in a real browser against the sandbox's real 3DS Method, ACS and
 * notification pages (another origin, over loopback HTTP): approve, refuse, timeout, abort, and
 * messages from the wrong origin or another frame ignored. The shopper's answer is typed into the
 * ACS frame through the browser driver.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { CheckoutActionError, handleAction, performAction, prepareAction, type ActionOutcome } from '@card-jwe/checkout-actions'

let container: HTMLElement

afterEach(() => container?.remove())
afterAll(() => commands.closeSandbox())

function newContainer(): HTMLElement {
  container = document.createElement('div')
  document.body.append(container)
  return container
}

function decodeResult(outcome: ActionOutcome): Record<string, string> {
  if (outcome.kind !== 'details') throw new Error('expected details')
  return JSON.parse(atob(outcome.details.threeDSResult)) as Record<string, string>
}

/** A challenge card paid up to its challenge: the fingerprint done with the package, the challenge action returned. */
async function untilChallenge(): Promise<Record<string, unknown>> {
  const first = await commands.startCardPayment('challenge', location.origin)
  expect(first).toMatchObject({ resultCode: 'IdentifyShopper', action: { type: 'threeDS2', subtype: 'fingerprint' } })
  const fingerprint = await handleAction(first.action, { container: newContainer() })
  expect(decodeResult(fingerprint)).toMatchObject({ threeDSCompInd: 'Y' })
  const second = await commands.sendDetails((fingerprint as { details: Record<string, string> }).details)
  expect(second).toMatchObject({ resultCode: 'ChallengeShopper', action: { type: 'threeDS2', subtype: 'challenge' } })
  return second.action!
}

const challengeFrame = () => container.querySelector<HTMLIFrameElement>('iframe[name^="threeds-challenge"]')

describe('3-D Secure against the sandbox', () => {
  it('frictionless: the 3DS Method runs in a hidden frame, then Authorised', async () => {
    const first = await commands.startCardPayment('frictionless', location.origin)
    const outcome = await handleAction(first.action, { container: newContainer() })
    expect(decodeResult(outcome)).toMatchObject({ threeDSCompInd: 'Y' })
    expect(container.querySelector('iframe')).toBeNull()
    expect(await commands.sendDetails((outcome as { details: Record<string, string> }).details)).toMatchObject({ resultCode: 'Authorised' })
  })

  it('an issuer without a 3DS Method: "U" at once, no frame, then Authorised', async () => {
    const first = await commands.startCardPayment('frictionless', location.origin)
    const { threeDSServerTransID } = JSON.parse(atob(String(first.action!.token))) as { threeDSServerTransID: string }
    // The token as such an issuer's service sends it: the transaction, no method URL.
    const action = { ...first.action, token: btoa(JSON.stringify({ threeDSServerTransID })) }
    const added: Node[] = []
    const note = (records: MutationRecord[]) => {
      for (const record of records) added.push(...record.addedNodes)
    }
    const watch = new MutationObserver(note)
    watch.observe(newContainer(), { childList: true, subtree: true })
    const outcome = await handleAction(action, { container })
    note(watch.takeRecords())
    watch.disconnect()
    expect(decodeResult(outcome)).toEqual({ threeDSCompInd: 'U', threeDSServerTransID })
    // Nothing was ever put in the page: no frame, no form.
    expect(added).toEqual([])
    expect(await commands.sendDetails((outcome as { details: Record<string, string> }).details)).toMatchObject({ resultCode: 'Authorised' })
  })

  it.each([
    ['password', 'Y', 'Authorised'],
    ['wrong', 'N', 'Refused'],
  ])(
    'challenge answered "%s": transStatus %s, %s; the frame sized by its EMV window and then removed',
    async (answer, transStatus, resultCode) => {
      const action = await untilChallenge()
      const running = handleAction(action, { container: newContainer() })
      await expect.poll(() => challengeFrame()?.style.width).toMatch(/px|%/)
      await commands.answerChallenge(answer)
      const outcome = await running
      expect(decodeResult(outcome)).toMatchObject({ transStatus })
      expect(challengeFrame()).toBeNull()
      expect(await commands.sendDetails((outcome as { details: Record<string, string> }).details)).toMatchObject({ resultCode })
    },
  )

  it('ignores a message from the wrong origin and one from another frame of the right origin', async () => {
    const action = await untilChallenge()
    const other = await untilChallenge() // a second payment's challenge, in a frame of its own
    const otherFrame = handleAction(other, { container: newContainer() }).catch((error: unknown) => error)
    const otherContainer = container
    const running = handleAction(action, { container: newContainer() })
    await expect.poll(() => challengeFrame()).not.toBeNull()
    const id = JSON.parse(atob(String(action.token))).threeDSServerTransID as string
    // The right shape and transaction, from this page's own origin: not the ACS's, so ignored.
    window.postMessage({ type: 'threeDSChallengeCompleted', threeDSServerTransID: id, transStatus: 'Y' }, location.origin)
    // The other payment's frame answers (right origin, wrong frame and transaction): ignored too.
    const otherName = otherContainer.querySelector('iframe')!.name
    await commands.answerChallenge('password', otherName)
    await new Promise((resolve) => setTimeout(resolve, 300))
    // Our challenge still waits; the shopper now refuses it, and that is what counts.
    await commands.answerChallenge('wrong', challengeFrame()!.name)
    expect(decodeResult(await running)).toMatchObject({ transStatus: 'N' })
    expect(decodeResult((await otherFrame) as ActionOutcome)).toMatchObject({ transStatus: 'Y' })
    otherContainer.remove()
  })

  it('shows a full-screen challenge (no fixed window fits) as tall as the viewport, not an empty frame’s 150 px', async () => {
    const action = await untilChallenge()
    const narrow = newContainer()
    narrow.style.width = '240px'
    const abort = new AbortController()
    const running = handleAction(action, { container: narrow, signal: abort.signal })
    await expect.poll(() => challengeFrame()?.style.width).toBe('100%')
    expect(challengeFrame()!.getBoundingClientRect().height).toBeGreaterThanOrEqual(window.innerHeight - 1)
    abort.abort()
    await running.catch(() => {})
  })

  it('gives up a challenge nobody answers: ERR_CHALLENGE_TIMEOUT, frame removed', async () => {
    const action = await untilChallenge()
    const error = await handleAction(action, { container: newContainer(), challengeTimeoutMs: 1500 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CheckoutActionError)
    expect(error).toMatchObject({ code: 'ERR_CHALLENGE_TIMEOUT' })
    expect(challengeFrame()).toBeNull()
  })

  it('titles the challenge frame as the shop asks (in its page’s language), English by default', async () => {
    const abort = new AbortController()
    const titled = handleAction(await untilChallenge(), { container: newContainer(), signal: abort.signal, challengeTitle: 'بنكك' })
    await expect.poll(() => challengeFrame()?.title).toBe('بنكك')
    abort.abort()
    await titled.catch(() => {})
    const second = new AbortController()
    const plain = handleAction(await untilChallenge(), { container: newContainer(), signal: second.signal })
    await expect.poll(() => challengeFrame()?.title).toBe('Card verification by your bank')
    second.abort()
    await plain.catch(() => {})
  })

  it('stops when the shop aborts: ERR_ABORTED, frame removed', async () => {
    const action = await untilChallenge()
    const abort = new AbortController()
    const running = handleAction(action, { container: newContainer(), signal: abort.signal }).catch((e: unknown) => e)
    await expect.poll(() => challengeFrame()).not.toBeNull()
    abort.abort()
    expect(await running).toMatchObject({ code: 'ERR_ABORTED' })
    expect(challengeFrame()).toBeNull()
  })

  it('answers "N" when the 3DS Method does not finish within the limit', async () => {
    const first = await commands.startCardPayment('frictionless', location.origin)
    const outcome = await performAction(prepareAction(first.action), { container: newContainer(), methodTimeoutMs: 1 })
    expect(decodeResult(outcome)).toMatchObject({ threeDSCompInd: 'N' })
    expect(container.querySelector('iframe')).toBeNull()
  })

  it('checks every token field before touching the page', async () => {
    const first = await commands.startCardPayment('frictionless', location.origin)
    const token = JSON.parse(atob(String(first.action!.token))) as Record<string, string>
    const broken = { ...first.action, token: btoa(JSON.stringify({ ...token, threeDSMethodUrl: 'javascript:alert(1)' })) }
    const error = await handleAction(broken, { container: newContainer() }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'ERR_ACTION_INVALID', message: 'token.threeDSMethodUrl: https (http only on loopback)' })
    expect(container.childElementCount).toBe(0)
  })
})

describe('redirects', () => {
  // One frame per method: navigating a frame back to about:blank is a third navigation that can lose a race to the first.
  async function namedFrame(name: string): Promise<HTMLElement> {
    const frame = document.createElement('iframe')
    frame.name = name
    newContainer().append(frame)
    await new Promise((resolve) =>
      frame.contentDocument?.readyState === 'complete' ? resolve(null) : frame.addEventListener('load', resolve, { once: true }),
    )
    return frame.contentDocument!.body
  }

  it('navigates for GET and posts a form for POST, in the window the container belongs to', async () => {
    const getWindow = await namedFrame('redirect-get')
    const postWindow = await namedFrame('redirect-post')
    const first = await commands.startCardPayment('frictionless', location.origin)
    const sandboxOrigin = new URL(JSON.parse(atob(String(first.action!.token))).threeDSMethodUrl as string).origin

    expect(
      await handleAction({ type: 'redirect', method: 'GET', url: `${sandboxOrigin}/sandbox/inbox?via=get` }, { container: getWindow }),
    ).toEqual({ kind: 'redirecting' })
    await expect.poll(() => commands.frameUrl('redirect-get')).toBe(`${sandboxOrigin}/sandbox/inbox?via=get`)
    expect(location.href).not.toContain('/sandbox/inbox')

    const post = { type: 'redirect', method: 'POST', url: `${sandboxOrigin}/threeds/method`, data: { threeDSMethodData: 'e30' } }
    expect(await handleAction(post, { container: postWindow })).toEqual({ kind: 'redirecting' })
    await expect.poll(() => commands.frameUrl('redirect-post')).toBe(`${sandboxOrigin}/threeds/method`)
    expect(await commands.frameUrl('redirect-get')).toBe(`${sandboxOrigin}/sandbox/inbox?via=get`)
  })
})
