/**
 * Vitest's keyboard syntax ("4111", "{Backspace}", "{Control>}v{/Control}") as the key presses a
 * driver makes, one key down or up at a time, so every engine gets real key events.
 */
import { parseKeyDef } from '@vitest/browser'

export type KeyStep = { readonly kind: 'down' | 'up'; readonly key: string } | { readonly kind: 'selectAll' }

/** The steps for `text`; `pressed` holds keys still down between calls, and is updated. */
export function keySteps(text: string, pressed: Set<string>): KeyStep[] {
  const steps: KeyStep[] = []
  for (const { releasePrevious, releaseSelf, repeat, keyDef } of parseKeyDef(text)) {
    const key = keyDef.key!
    if (pressed.has(key)) {
      steps.push({ kind: 'up', key })
      pressed.delete(key)
    }
    if (releasePrevious) continue
    if (key === 'selectall') {
      steps.push({ kind: 'selectAll' })
      continue
    }
    for (let i = 0; i < repeat; i++) {
      steps.push({ kind: 'down', key })
      if (releaseSelf || i < repeat - 1) steps.push({ kind: 'up', key })
    }
    if (!releaseSelf) pressed.add(key)
  }
  return steps
}

/** Steps that release every key still down. */
export function releaseAll(pressed: Set<string>): KeyStep[] {
  const steps = [...pressed].map((key): KeyStep => ({ kind: 'up', key }))
  pressed.clear()
  return steps
}
