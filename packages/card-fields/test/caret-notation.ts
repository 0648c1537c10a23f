/**
 * Field states written as text: "41|11 1111" has the caret after "41"; "[4111] 1111" has "4111"
 * selected. The notation the caret tables use, in Node and in the browsers alike.
 */
import type { FieldEdit, FieldState } from '../src/field-edit.ts'

export function parseState(written: string): FieldState {
  const caret = written.indexOf('|')
  if (caret >= 0) {
    const value = written.replace('|', '')
    return { value, selectionStart: caret, selectionEnd: caret }
  }
  const start = written.indexOf('[')
  const end = written.indexOf(']') - 1
  if (start < 0 || end < start) throw new Error(`no caret or selection in "${written}"`)
  return { value: written.replace('[', '').replace(']', ''), selectionStart: start, selectionEnd: end }
}

export function writeState(value: string, caret: number): string {
  return `${value.slice(0, caret)}|${value.slice(caret)}`
}

/** A key in a table row: Backspace, Delete, or text typed (or pasted) over the selection. */
export type TableKey = 'Backspace' | 'Delete' | { readonly type: string } | { readonly paste: string }

export function editOf(key: TableKey): FieldEdit {
  if (key === 'Backspace') return { kind: 'deleteBackward' }
  if (key === 'Delete') return { kind: 'deleteForward' }
  return { kind: 'insert', text: 'type' in key ? key.type : key.paste }
}
