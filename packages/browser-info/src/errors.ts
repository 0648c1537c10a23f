/** Stable codes of what browser-info refuses. */
export type BrowserInfoErrorCode =
  /** `collectBrowserInfo()` ran where there is no `window` (Node, a worker): it reads the page. */
  | 'ERR_NO_BROWSER'
  /** A helper got an argument of the wrong kind (a programming error, not user input). */
  | 'ERR_INVALID_ARGUMENT'

export class BrowserInfoError extends Error {
  override readonly name = 'BrowserInfoError'
  readonly code: BrowserInfoErrorCode

  constructor(code: BrowserInfoErrorCode, message: string) {
    super(message)
    this.code = code
  }
}
