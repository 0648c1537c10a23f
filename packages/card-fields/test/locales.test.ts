/**
 * Every locale entry: each message there, none left in English by mistake, every number and
 * placeholder kept; a shop's override laid over any of them; one package entry per locale.
 */
import { describe, expect, it } from 'vitest'
import { BRAND_NAMES, MESSAGES_EN, mergeMessages, pickLocale, type CardFieldMessages } from '../src/index.ts'
import manifest from '../package.json' with { type: 'json' }

const files = import.meta.glob<{ messages: CardFieldMessages }>('../src/locales/*.ts', { eager: true })
const locales = Object.entries(files)
  .map(([file, entry]) => [/([\w-]+)\.ts$/.exec(file)![1]!, entry.messages] as const)
  .sort(([a], [b]) => a.localeCompare(b))
const others = locales.filter(([tag]) => tag !== 'en')

/** Every text of a locale by its path: each field's messages and the label's three forms. */
function texts(messages: CardFieldMessages): Map<string, string> {
  const all = new Map<string, string>()
  for (const [field, rules] of Object.entries(messages.errors)) {
    for (const [rule, text] of Object.entries(rules)) all.set(`${field}.${rule}`, text as string)
  }
  all.set('securityCodeLabel(CID, 4)', messages.securityCodeLabel({ name: 'CID', size: 4 }))
  all.set('securityCodeLabel(none)', messages.securityCodeLabel(null))
  all.set('securityCodeLabel(unknown)', messages.securityCodeLabel(undefined))
  return all
}

const english = texts(MESSAGES_EN)
/** Text that reads the same in every language: brand names, digits and punctuation. */
const sameInEveryLanguage = (text: string) => Object.values(BRAND_NAMES).includes(text) || /^[\d\s\p{P}]*$/u.test(text)

describe('the locale entries', () => {
  it('are sixteen, English the root entry’s own words, each a package entry that pickLocale can return', () => {
    const tags = locales.map(([tag]) => tag)
    expect(tags).toEqual(['ar', 'cs', 'da', 'de', 'en', 'es', 'fi', 'fr', 'it', 'ja', 'nb', 'nl', 'pl', 'pt', 'sv', 'zh'])
    expect(locales.find(([tag]) => tag === 'en')![1]).toBe(MESSAGES_EN)
    for (const tag of tags) {
      expect(manifest.exports[`./locales/${tag}` as keyof typeof manifest.exports]).toEqual({
        types: `./dist/locales/${tag}.d.ts`,
        '@card-jwe/source': `./src/locales/${tag}.ts`,
        default: `./dist/locales/${tag}.js`,
      })
      expect(pickLocale([tag.toUpperCase()])).toBe(tag)
    }
    expect(Object.keys(manifest.exports).filter((path) => path.startsWith('./locales/'))).toHaveLength(16)
  })

  it.each(others)('%s has every message English has, and no other', (_tag, messages) => {
    expect([...texts(messages).keys()].sort()).toEqual([...english.keys()].sort())
    for (const text of texts(messages).values()) expect(text.trim()).not.toBe('')
  })

  it.each(others)('%s leaves no message in English', (_tag, messages) => {
    const leftInEnglish = [...texts(messages)].filter(([path, text]) => text === english.get(path) && !sameInEveryLanguage(text))
    expect(leftInEnglish.map(([path]) => path)).toEqual([])
  })

  it.each(others)('%s keeps every number and placeholder (the code’s name and size, 01 and 12)', (_tag, messages) => {
    const numbers = (text: string) => (text.match(/\d+/g) ?? []).sort()
    const mine = texts(messages)
    for (const [path, text] of english) expect(numbers(mine.get(path)!), path).toEqual(numbers(text))
    expect(mine.get('securityCodeLabel(CID, 4)')).toContain('CID')
    expect(messages.securityCodeLabel({ name: 'CVV', size: 3 })).toMatch(/CVV.*3|3.*CVV/s)
  })

  it.each(locales)('%s takes the shop’s own words for any message, the rest its own', (_tag, messages) => {
    const merged = mergeMessages(messages, {
      errors: { number: { brand: 'We take Visa only.' } },
      securityCodeLabel: () => 'CVC',
    })
    expect(merged.errors.number.brand).toBe('We take Visa only.')
    expect(merged.errors.number.luhn).toBe(messages.errors.number.luhn)
    expect(merged.errors.expiry).toEqual(messages.errors.expiry)
    expect(merged.securityCodeLabel(null)).toBe('CVC')
  })
})
