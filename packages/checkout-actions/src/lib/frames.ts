/** The DOM half of the 3-D Secure steps: frames, form posts into them, and their messages. */

let frameCount = 0

/** An iframe with a unique name, for a form to target. */
export function createFrame(parent: HTMLElement, purpose: string, title: string): HTMLIFrameElement {
  const frame = parent.ownerDocument.createElement('iframe')
  frame.name = `${purpose}-${++frameCount}`
  frame.title = title
  parent.append(frame)
  return frame
}

/** Posts fields to `url` through a hidden form, into `target` (a frame's name) or the page itself. */
export function postForm(parent: HTMLElement, url: string, fields: Readonly<Record<string, string>>, target?: string): void {
  const form = parent.ownerDocument.createElement('form')
  form.method = 'post'
  form.action = url
  if (target) form.target = target
  form.hidden = true
  for (const [name, value] of Object.entries(fields)) {
    const input = parent.ownerDocument.createElement('input')
    input.type = 'hidden'
    input.name = name
    input.value = value
    form.append(input)
  }
  parent.append(form)
  form.submit()
  form.remove()
}

/** What a frame's message must match to count: origin, the frame itself, type and transaction. */
export interface ExpectedMessage {
  readonly frame: HTMLIFrameElement
  readonly origin: string
  readonly type: string
  readonly transactionId: string
}

/**
 * The first message that matches every part of `expected`; every other message is ignored (a
 * script of another origin, another frame, an old transaction). Resolves undefined on timeout;
 * rejects with `onAbort()`'s error when the signal fires.
 */
export function messageFrom(
  expected: ExpectedMessage,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  onAbort: () => Error,
): Promise<Record<string, unknown> | undefined> {
  const view = expected.frame.ownerDocument.defaultView!
  return new Promise((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer)
      view.removeEventListener('message', listen)
      signal?.removeEventListener('abort', abort)
    }
    const listen = (event: MessageEvent) => {
      // Strict: the expected origin, the frame we opened, the message type and our transaction.
      if (event.origin !== expected.origin || event.source !== expected.frame.contentWindow) return
      const data = event.data as Record<string, unknown> | null
      if (typeof data !== 'object' || data === null || data.type !== expected.type || data.threeDSServerTransID !== expected.transactionId)
        return
      finish()
      resolve(data)
    }
    const abort = () => {
      finish()
      reject(onAbort())
    }
    const timer = setTimeout(() => {
      finish()
      resolve(undefined)
    }, timeoutMs)
    view.addEventListener('message', listen)
    signal?.addEventListener('abort', abort)
  })
}
