/**
 * The flow's locale entries: sixteen, each with every message English has and no other, none left
 * in English by mistake; each a package entry that pickLocale can return, with region fallback.
 */
import { describe, expect, it } from 'vitest'
import { pickLocale, type CheckoutMessages } from '../src/index.ts'
import { messages as ENGLISH } from '../src/locales/en.ts'
import manifest from '../package.json' with { type: 'json' }

const files = import.meta.glob<{ messages: CheckoutMessages }>('../src/locales/*.ts', { eager: true })
const locales = Object.entries(files)
  .map(([file, entry]) => [/([\w-]+)\.ts$/.exec(file)![1]!, entry.messages] as const)
  .sort(([a], [b]) => a.localeCompare(b))
const others = locales.filter(([tag]) => tag !== 'en')

describe('the flow’s locale entries', () => {
  it('are sixteen, each a package entry that pickLocale can return', () => {
    const tags = locales.map(([tag]) => tag)
    expect(tags).toEqual(['ar', 'cs', 'da', 'de', 'en', 'es', 'fi', 'fr', 'it', 'ja', 'nb', 'nl', 'pl', 'pt', 'sv', 'zh'])
    for (const tag of tags) {
      expect(manifest.exports[`./locales/${tag}` as keyof typeof manifest.exports]).toEqual({
        types: `./dist/locales/${tag}.d.ts`,
        '@card-jwe/source': `./src/locales/${tag}.ts`,
        default: `./dist/locales/${tag}.js`,
      })
      expect(pickLocale([tag])).toBe(tag)
    }
    expect(Object.keys(manifest.exports).filter((path) => path.startsWith('./locales/'))).toHaveLength(16)
  })

  it.each(others)('%s has every message English has, and no other, each translated', (_tag, messages) => {
    expect(Object.keys(messages).sort()).toEqual(Object.keys(ENGLISH).sort())
    for (const [key, text] of Object.entries(messages)) {
      expect(text.trim(), key).not.toBe('')
      expect(text, key).not.toBe(ENGLISH[key as keyof CheckoutMessages])
    }
  })

  it('falls back by region and to English: fr-CH is fr, pt-BR is pt, an unknown language en', () => {
    expect(pickLocale(['fr-CH'])).toBe('fr')
    expect(pickLocale(['pt-BR'])).toBe('pt')
    expect(pickLocale(['xx-YY', 'de-AT'])).toBe('de')
    expect(pickLocale(['tlh'])).toBe('en')
  })
})
