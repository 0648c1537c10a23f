import type { FieldEdit } from '../field-edit.js'

// A cut or drag always has a selection, which a backward deletion removes.
const KINDS: Readonly<Record<string, FieldEdit['kind']>> = {
  insertText: 'insert',
  insertFromPaste: 'insert',
  insertFromDrop: 'insert',
  insertReplacementText: 'insert',
  insertFromYank: 'insert',
  deleteContentBackward: 'deleteBackward',
  deleteByCut: 'deleteBackward',
  deleteByDrag: 'deleteBackward',
  deleteContentForward: 'deleteForward',
}

/**
 * The edit a `beforeinput` event asks for (Input Events Level 2, section 5.1), when card-fields
 * makes it itself; null when the browser should make it and `input` re-formats after: IME
 * composition (never interrupted), word and line deletions, undo and redo.
 */
export function editFromEvent(event: InputEvent): FieldEdit | null {
  const kind = event.isComposing || !Object.hasOwn(KINDS, event.inputType) ? undefined : KINDS[event.inputType]
  if (kind !== 'insert') return kind ? { kind } : null
  const text = event.data ?? event.dataTransfer?.getData('text/plain') ?? null
  return text === null ? null : { kind, text }
}
