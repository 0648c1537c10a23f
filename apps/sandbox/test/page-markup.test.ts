/**
 * The pages' markup (pages/page.ts, on hono/html): every value put into a page is escaped, the
 * templates' own markup and fragments go in as they are, escaped once, and the result message's
 * JSON cannot end its script block early.
 */
import { Hono } from 'hono'
import { html } from 'hono/html'
import { describe, expect, it } from 'vitest'
import { autoPostForm, type Markup, page, type PageParts } from '../src/pages/page.ts'

const HOSTILE = `<script>alert("x")</script> & 'quoted'`
const ESCAPED = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;'

/** The page as a browser gets it, status and all. */
async function served(parts: PageParts, status?: 200 | 410 | 422): Promise<{ status: number; csp: string | null; text: string }> {
  const app = new Hono().get('/', (c) => page(c, parts, status))
  const response = await app.request('/')
  return { status: response.status, csp: response.headers.get('content-security-policy'), text: await response.text() }
}

/** The markup between the page's <body> and the sandbox script that ends every page. */
async function bodyOf(parts: PageParts): Promise<string> {
  return /<body>(.*)<script src="\/static\/sandbox-page\.js"><\/script><\/body>/s.exec((await served(parts)).text)![1]!
}

describe('page()', () => {
  it('escapes <, >, &, " and \' in the title and in element content', async () => {
    const { text } = await served({ title: HOSTILE, body: html`<p>${HOSTILE}</p>` })
    expect(text).toContain(`<title>${ESCAPED}</title>`)
    expect(text).toContain(`<p>${ESCAPED}</p>`)
    expect(text).not.toContain('<script>alert')
  })

  it('escapes them in a quoted attribute value, so a value cannot close the attribute', async () => {
    const form = autoPostForm('/next?a=1&b="2"', { '"name': '" autofocus onfocus="alert(1)' })
    expect(await bodyOf({ title: 't', body: form })).toBe(
      '<form method="post" action="/next?a=1&amp;b=&quot;2&quot;" data-auto-submit>' +
        '<input type="hidden" name="&quot;name" value="&quot; autofocus onfocus=&quot;alert(1)">' +
        '<noscript><button>Continue</button></noscript></form>',
    )
  })

  it('keeps the template’s own markup and character references as written, and writes numbers as text', async () => {
    expect(await bodyOf({ title: 't', body: html`<p>${1500} and ${-0.5}&nbsp;EUR</p>` })).toBe('<p>1500 and -0.5&nbsp;EUR</p>')
  })

  it('puts a nested fragment in as markup, its own values escaped once, not twice', async () => {
    const inner = html`<strong>${'Tea & <Co>'}</strong>`
    expect(await bodyOf({ title: 't', body: html`<p>${inner}</p>` })).toBe('<p><strong>Tea &amp; &lt;Co&gt;</strong></p>')
  })

  it('joins an array of fragments with nothing between them, and escapes strings in an array', async () => {
    const items = ['a<b', 'c&d'].map((text) => html`<li>${text}</li>`)
    expect(await bodyOf({ title: 't', body: html`<ul>${items}</ul><p>${['<', '>']}</p><ul>${[]}</ul>` })).toBe(
      '<ul><li>a&lt;b</li><li>c&amp;d</li></ul><p>&lt;&gt;</p><ul></ul>',
    )
  })

  it('escapes a plain string given where a fragment goes: only html`…` markup goes in unescaped', async () => {
    expect(await bodyOf({ title: 't', body: '<b>x</b>' as unknown as Markup })).toBe('&lt;b&gt;x&lt;/b&gt;')
  })

  it('answers with the status asked for, as HTML under the pages’ CSP', async () => {
    const answer = await served({ title: 'Gone', body: html`<p>gone</p>` }, 410)
    expect(answer.status).toBe(410)
    expect(answer.csp).toContain("default-src 'none'")
    expect(answer.csp).toContain("script-src 'self'")
  })
})

describe('the result message', () => {
  it('holds JSON that a "</script>" in a value cannot end early, parsing back to the same value, for an escaped origin', async () => {
    const data = { note: '</script><script>alert(1)</script>', quote: '"&\'' }
    const body = await bodyOf({ title: 't', body: html``, message: { data, targetOrigin: 'https://shop"&x.example' } })
    const block = /^<script type="application\/json" id="result-message" data-target-origin="([^"]*)">(.*)<\/script>$/s.exec(body)
    expect(block).not.toBeNull()
    expect(block![1]).toBe('https://shop&quot;&amp;x.example')
    expect(block![2]).not.toContain('</script')
    expect(JSON.parse(block![2]!)).toEqual(data)
  })
})
