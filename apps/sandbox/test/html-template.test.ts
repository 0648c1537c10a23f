/** The pages' `html` template: every interpolated value escaped, fragments kept as markup, never escaped twice. */
import { describe, expect, it } from 'vitest'
import { html, Html, scriptJson } from '../src/pages/lib/html.ts'

const HOSTILE = `<script>alert("x")</script> & 'quoted'`
const ESCAPED = '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;quoted&#39;'

describe('html`...`', () => {
  it('escapes <, >, &, " and \' in element content', () => {
    expect(html`<p>${HOSTILE}</p>`.toString()).toBe(`<p>${ESCAPED}</p>`)
  })

  it('escapes them in a quoted attribute value, so a value cannot close the attribute', () => {
    expect(html`<input value="${'" autofocus onfocus="alert(1)'}">`.toString()).toBe(
      '<input value="&#34; autofocus onfocus=&#34;alert(1)">',
    )
    expect(html`<a title='${"' onclick='x"}'>`.toString()).toBe("<a title='&#39; onclick=&#39;x'>")
  })

  it('keeps the template’s own markup and character references as written', () => {
    expect(html`<p>1.00&nbsp;EUR</p>`.toString()).toBe('<p>1.00&nbsp;EUR</p>')
  })

  it('writes numbers as text', () => {
    expect(html`<p>${1500} and ${-0.5}</p>`.toString()).toBe('<p>1500 and -0.5</p>')
  })

  it('puts a nested fragment in as markup, its own values escaped once, not twice', () => {
    const inner = html`<strong>${'Tea & <Co>'}</strong>`
    expect(html`<p>${inner}</p>`.toString()).toBe('<p><strong>Tea &#38; &#60;Co&#62;</strong></p>')
  })

  it('joins an array of fragments with nothing between them, and escapes strings in an array', () => {
    const items = ['a<b', 'c&d'].map((text) => html`<li>${text}</li>`)
    expect(html`<ul>${items}</ul>`.toString()).toBe('<ul><li>a&#60;b</li><li>c&#38;d</li></ul>')
    expect(html`<p>${['<', '>']}</p>`.toString()).toBe('<p>&#60;&#62;</p>')
    expect(html`<ul>${[]}</ul>`.toString()).toBe('<ul></ul>')
  })

  it('gives an object, not a string, so no string can pass for markup', () => {
    const fragment = html`<b>${'x'}</b>`
    expect(fragment).toBeInstanceOf(Html)
    expect(typeof fragment).toBe('object')
  })

  it('escapes an object dressed up as a fragment: only markup the template made goes in unescaped', () => {
    const forged = Object.assign(Object.create(Html.prototype) as object, { toString: () => '<script>x</script>' })
    expect(html`<p>${forged as Html}</p>`.toString()).toBe('<p>&#60;script&#62;x&#60;/script&#62;</p>')
  })
})

describe('scriptJson', () => {
  it('writes JSON that a "</script>" in a value cannot end early, and that parses back to the same value', () => {
    const data = { note: '</script><script>alert(1)</script>', quote: '"&\'' }
    const markup = html`<script type="application/json">${scriptJson(data)}</script>`.toString()
    expect(markup.match(/<\/script>/g)).toHaveLength(1)
    expect(JSON.parse(/^<script[^>]*>(.*)<\/script>$/.exec(markup)![1]!)).toEqual(data)
  })
})
