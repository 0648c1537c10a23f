/**
 * Which requests carry the card: a glob over the whole URL as Playwright writes them
 * (`**` any characters, `*` any but `/`), a RegExp, or a predicate.
 */
export type UrlPattern = string | RegExp | ((url: URL) => boolean)

const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&')

/** Turns a pattern into a test of a request URL. */
export function urlMatcher(pattern: UrlPattern): (url: string) => boolean {
  if (typeof pattern === 'function') return (url) => pattern(new URL(url))
  if (pattern instanceof RegExp) return (url) => pattern.test(url)
  const source = pattern
    .split('**')
    .map((part) => part.split('*').map(escapeRegExp).join('[^/]*'))
    .join('.*')
  const glob = new RegExp(`^${source}$`)
  return (url) => glob.test(url)
}
