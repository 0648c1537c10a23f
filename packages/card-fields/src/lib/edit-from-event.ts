import type { FieldEdit } from '../field-edit.js'

/**
 * The edit a `beforeinput` event asks for (Input Events Level 2, section 5.1), when card-fields
 * makes it itself; null when the browser should make it and `input` re-formats after: IME
 * composition (never interrupted), word and line deletions, undo and redo.
 */
export function editFromEvent(event: InputEvent): FieldEdit | null {
  if (event.isComposing) return null
  switch (event.inputType) {
    case 'insertText':
    case 'insertFromPaste':
    case 'insertFromDrop':
    case 'insertReplacementText':
    case 'insertFromYank': {
      const text = event.data ?? event.dataTransfer?.getData('text/plain') ?? null
      return text === null ? null : { kind: 'insert', text }
    }
    case 'deleteContentBackward':
    case 'deleteByCut':
    case 'deleteByDrag':
      // A cut or drag always has a selection, which a backward deletion removes.
      return { kind: 'deleteBackward' }
    case 'deleteContentForward':
      return { kind: 'deleteForward' }
    default:
      return null
  }
}
