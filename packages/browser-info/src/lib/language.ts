import { MAX_LANGUAGE_LENGTH } from '../emv-limits.js'

/**
 * A BCP 47 tag that fits EMV's 8 characters, shortened by whole subtags from the end (RFC 5646
 * section 4.4.2, truncation): "zh-Hant-TW" gives "zh-Hant", "de-CH-1996" gives "de-CH". A tag
 * that is not BCP 47 at all becomes "und" (undetermined), the tag for "we do not know".
 */
export function toEmvLanguage(tag: string): string {
  const subtags = tag.trim().split(/[-_]/)
  if (!subtags.every((s) => /^[A-Za-z0-9]{1,8}$/.test(s)) || !/^[A-Za-z]{2,8}$/.test(subtags[0]!)) return 'und'
  while (subtags.join('-').length > MAX_LANGUAGE_LENGTH) subtags.pop()
  // A trailing single-letter subtag (an extension or private-use prefix) means nothing alone.
  while (subtags.length > 1 && subtags.at(-1)!.length === 1) subtags.pop()
  return subtags.join('-')
}
