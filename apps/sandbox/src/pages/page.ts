import type { Context } from 'hono'
import { html, raw } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'

/** Submits forms marked data-auto-submit and posts a page's result to the parent window. */
export const PAGE_SCRIPT = `// card-jwe sandbox pages: no inline script, so the pages run under a strict CSP.
for (const form of document.querySelectorAll('form[data-auto-submit]')) form.submit();
const message = document.getElementById('result-message');
if (message) window.parent.postMessage(JSON.parse(message.textContent), message.dataset.targetOrigin);
`

/** HTML under a CSP: sandbox pages run their scripts from /static only, and may be framed (3-D Secure iframes). */
// img-src data: for the page's own empty icon: without one Firefox asks for /favicon.ico and reports the refusal.
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; img-src data:; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
    "form-action *; frame-ancestors http: https:; base-uri 'none'",
}

/** The pages' one style sheet, a rule a line. */
const PAGE_STYLE = [
  html`body{font:16px system-ui,sans-serif;margin:1.5rem;color:#1b1b1b}`,
  html`button,input{font:inherit;padding:.4rem .6rem}`,
  html`label{display:block;margin:.8rem 0 .3rem}`,
]

/**
 * Markup from hono's html`…`: every value put into the template is escaped, so a value a merchant,
 * a shop or a request supplied never becomes markup; a fragment goes in as it is, escaped once.
 * Attribute values in the templates are always quoted: escaping cannot protect an unquoted one.
 */
export type Markup = HtmlEscapedString | Promise<HtmlEscapedString>

export interface PageParts {
  readonly title: string
  readonly body: Markup
  /** A message for window.parent, delivered only to this origin (never "*"). */
  readonly message?: { readonly data: unknown; readonly targetOrigin: string }
}

/**
 * JSON for a `<script type="application/json">` block. Script content is raw text, without
 * character references (HTML Living Standard, 13.1.2.6), so escaping would corrupt the JSON; "<" is
 * written as \u003c instead, so no "</script>" can end the block early.
 */
function scriptJson(value: unknown): HtmlEscapedString {
  return raw(JSON.stringify(value).replace(/</g, '\\u003c'))
}

/** The message block PAGE_SCRIPT posts to the parent window. */
function resultMessage({ data, targetOrigin }: NonNullable<PageParts['message']>): Markup {
  return html`<script type="application/json" id="result-message" data-target-origin="${targetOrigin}">${scriptJson(data)}</script>`
}

/** A whole page, under the pages' CSP. */
export function page(c: Context, parts: PageParts, status: 200 | 410 | 422 = 200): Response | Promise<Response> {
  const message = parts.message ? resultMessage(parts.message) : ''
  const markup = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><link rel="icon" href="data:,">
<title>${parts.title}</title>
<style>${PAGE_STYLE}</style>
</head><body>${parts.body}${message}<script src="/static/sandbox-page.js"></script></body></html>`
  return c.html(markup, status, PAGE_HEADERS)
}

/** A form that posts itself on load (the EMV browser flow's hand-offs). */
export function autoPostForm(action: string, fields: Readonly<Record<string, string>>): Markup {
  const inputs = Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)
  return html`<form method="post" action="${action}" data-auto-submit>${inputs}<noscript><button>Continue</button></noscript></form>`
}

/** GET /static/sandbox-page.js */
export function pageScript(c: Context): Response {
  return c.body(PAGE_SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8' })
}
