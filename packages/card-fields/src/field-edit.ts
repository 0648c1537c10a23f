/**
 * The edits a shopper makes, as the browser's `beforeinput` event names them (Input Events Level 2,
 * section 5.1: `inputType`), and the state they apply to. Pure data, so each field's formatting is
 * a function that can be tested without a browser.
 */

/** One edit: text typed, pasted, dropped or autofilled over the selection, or a deletion. */
export type FieldEdit =
  | {
      /** Text replaces the selection (typed, pasted, dropped, autofilled). */
      readonly kind: 'insert'
      /** The text as given; characters the field does not take are dropped. */
      readonly text: string
    }
  | {
      /** Backspace: the selection, or the digit before the caret (past any separator). */
      readonly kind: 'deleteBackward'
    }
  | {
      /** Delete: the selection, or the digit after the caret (past any separator). */
      readonly kind: 'deleteForward'
    }

/** A field's text and selection, as `<input>` holds them. */
export interface FieldState {
  /** The field's text. */
  readonly value: string
  /** Start of the selection; the caret when nothing is selected. */
  readonly selectionStart: number
  /** End of the selection; equal to the start when nothing is selected. */
  readonly selectionEnd: number
}

/** A field's text and caret after an edit. */
export interface EditResult {
  /** The new text. */
  readonly value: string
  /** Where the caret goes. */
  readonly caret: number
}
