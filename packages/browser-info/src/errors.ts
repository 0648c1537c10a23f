/** Stable codes of what browser-info refuses. */
export type BrowserInfoErrorCode =
  /** `collectBrowserInfo()` ran where there is no `window` (Node, a worker): it reads the page. */
  | 'ERR_NO_BROWSER'
  /** A helper got an argument of the wrong kind (a programming error, not user input). */
  | 'ERR_INVALID_ARGUMENT'

/** What browser-info throws: a stable `code` and a message that names the argument. */
export class BrowserInfoError extends Error {
  /** Always "BrowserInfoError", also after bundling renames the class. */
  override readonly name = 'BrowserInfoError'
  /** Stable across versions: branch on this, not on the message. */
  readonly code: BrowserInfoErrorCode

  constructor(code: BrowserInfoErrorCode, message: string) {
    super(message)
    this.code = code
  }
}
