import { html as htmlResponse } from '../http/respond.js'
import { html, scriptJson, type Html } from './lib/html.js'
import type { SandboxResponse } from '../http/types.js'

/** Submits forms marked data-auto-submit and posts a page's result to the parent window. */
export const PAGE_SCRIPT = `// card-jwe sandbox pages: no inline script, so the pages run under a strict CSP.
for (const form of document.querySelectorAll('form[data-auto-submit]')) form.submit();
const message = document.getElementById('result-message');
if (message) window.parent.postMessage(JSON.parse(message.textContent), message.dataset.targetOrigin);
`

/** The pages' one style sheet, a rule a line. */
const PAGE_STYLE = [
  html`body{font:16px system-ui,sans-serif;margin:1.5rem;color:#1b1b1b}`,
  html`button,input{font:inherit;padding:.4rem .6rem}`,
  html`label{display:block;margin:.8rem 0 .3rem}`,
]

export interface PageParts {
  readonly title: string
  readonly body: Html
  /** A message for window.parent, delivered only to this origin (never "*"). */
  readonly message?: { readonly data: unknown; readonly targetOrigin: string }
}

/** The message block PAGE_SCRIPT posts to the parent window. */
function resultMessage({ data, targetOrigin }: NonNullable<PageParts['message']>): Html {
  return html`<script type="application/json" id="result-message" data-target-origin="${targetOrigin}">${scriptJson(data)}</script>`
}

export function page(parts: PageParts): SandboxResponse {
  const message = parts.message ? resultMessage(parts.message) : ''
  return htmlResponse(
    html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><link rel="icon" href="data:,">
<title>${parts.title}</title>
<style>${PAGE_STYLE}</style>
</head><body>${parts.body}${message}<script src="/static/sandbox-page.js"></script></body></html>`.toString(),
  )
}

/** A form that posts itself on load (the EMV browser flow's hand-offs). */
export function autoPostForm(action: string, fields: Readonly<Record<string, string>>): Html {
  const inputs = Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)
  return html`<form method="post" action="${action}" data-auto-submit>${inputs}<noscript><button>Continue</button></noscript></form>`
}
