/**
 * card-fields' caret tables replayed in a real browser with real key presses (the provider's
 * keyboard, so the browser fires its own beforeinput and input events), and a real paste.
 */
import { describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { useCardForm } from './card-form.ts'
import { parseState, writeState, type TableKey } from './caret-notation.ts'
import { EXPIRY_TABLE, NUMBER_TABLE } from './caret-tables.ts'

const { input, attach } = useCardForm()

/** Puts the field in the written state, then presses the key for real. */
async function press(field: HTMLInputElement, before: string, key: TableKey): Promise<string> {
  const state = parseState(before)
  field.focus()
  field.value = state.value
  field.setSelectionRange(state.selectionStart, state.selectionEnd)
  if (key === 'Backspace') await userEvent.keyboard('{Backspace}')
  else if (key === 'Delete') await userEvent.keyboard('{Delete}')
  else if ('type' in key) await userEvent.keyboard(key.type.replace(/[{[]/g, (c) => c + c))
  return writeState(field.value, field.selectionStart ?? -1)
}

const typedRows = <T extends readonly [string, TableKey, string | null]>(table: readonly T[]) =>
  table.filter(([, key]) => typeof key === 'string' || 'type' in key)

describe('the caret tables, key by key', () => {
  it.each(typedRows(NUMBER_TABLE))('number: %s + %o -> %s', async (before, key, after) => {
    const { number } = attach()
    expect(await press(number, before, key)).toBe(after ?? before)
  })

  it.each(typedRows(EXPIRY_TABLE))('expiry: %s + %o -> %s', async (before, key, after) => {
    const { expiry } = attach()
    expect(await press(expiry, before, key)).toBe(after ?? before)
  })

  it.each(NUMBER_TABLE.concat(EXPIRY_TABLE).filter(([before, key]) => typeof key === 'object' && 'paste' in key && before === '|'))(
    'a real paste (clipboard, Ctrl+V) into an empty field: %s + %o -> %s',
    async (_before, key, after) => {
      const isExpiry = /\//.test(after ?? '')
      const { number, expiry } = attach()
      const source = input('clipboard-source')
      source.value = (key as { paste: string }).paste
      source.select()
      await userEvent.copy()
      const target = isExpiry ? expiry : number
      target.focus()
      await userEvent.paste()
      expect(writeState(target.value, target.selectionStart!)).toBe(after)
    },
  )

  it('types a whole number, gaps appearing as the shopper types', async () => {
    const { number } = attach()
    await userEvent.type(number, '378282246310005')
    expect(writeState(number.value, number.selectionStart!)).toBe('3782 822463 10005|')
  })
})
