import { describe, expect, it } from 'vitest'
import { pickLocale } from '../src/index.ts'

describe('pickLocale', () => {
  it.each([
    [['nl'], 'nl'],
    [['fr-CH'], 'fr'],
    [['pt-BR'], 'pt'],
    [['zh-Hant-TW'], 'zh'],
    [['nb-NO'], 'nb'],
    [['no'], 'nb'],
    [['no-NO'], 'nb'],
    [['ar-EG'], 'ar'],
    [['en-GB'], 'en'],
  ])('%j -> %s: the tag, else its language', (requested, locale) => {
    expect(pickLocale(requested)).toBe(locale)
  })

  it('ignores case', () => {
    expect(pickLocale(['DE-at'])).toBe('de')
    expect(pickLocale(['ZH-hANS-cn'])).toBe('zh')
    expect(pickLocale(['NB'])).toBe('nb')
  })

  it('takes the shopper’s first language it has, in their order', () => {
    expect(pickLocale(['tlh', 'ko-KR', 'it-CH', 'de'])).toBe('it')
    expect(pickLocale(['fr-CA', 'de'])).toBe('fr')
  })

  it('falls back to English for none it has, or none given', () => {
    expect(pickLocale(['ko', 'tlh'])).toBe('en')
    expect(pickLocale([])).toBe('en')
    expect(pickLocale([''])).toBe('en')
  })
})
