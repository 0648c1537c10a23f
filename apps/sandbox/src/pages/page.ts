import { escapeHtml, html } from '../http/respond.js'
import type { SandboxResponse } from '../http/types.js'

/** Submits forms marked data-auto-submit and posts a page's result to the parent window. */
export const PAGE_SCRIPT = `// card-jwe sandbox pages: no inline script, so the pages run under a strict CSP.
for (const form of document.querySelectorAll('form[data-auto-submit]')) form.submit();
const message = document.getElementById('result-message');
if (message) window.parent.postMessage(JSON.parse(message.textContent), message.dataset.targetOrigin);
`

export interface PageParts {
  readonly title: string
  readonly body: string
  /** A message for window.parent, delivered only to this origin (never "*"). */
  readonly message?: { readonly data: unknown; readonly targetOrigin: string }
}

/**
 * JSON for a <script type="application/json"> block. Script content is raw text (no character
 * references), so "<" is written as \u003c: no "</script>" can end the block early.
 */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}

export function page(parts: PageParts): SandboxResponse {
  const message = parts.message
    ? `<script type="application/json" id="result-message" data-target-origin="${escapeHtml(parts.message.targetOrigin)}">${scriptSafeJson(parts.message.data)}</script>`
    : ''
  return html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><link rel="icon" href="data:,">
<title>${escapeHtml(parts.title)}</title>
<style>body{font:16px system-ui,sans-serif;margin:1.5rem;color:#1b1b1b}button,input{font:inherit;padding:.4rem .6rem}label{display:block;margin:.8rem 0 .3rem}</style>
</head><body>${parts.body}${message}<script src="/static/sandbox-page.js"></script></body></html>`)
}

/** A form that posts itself on load (the EMV browser flow's hand-offs). */
export function autoPostForm(action: string, fields: Readonly<Record<string, string>>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('')
  return `<form method="post" action="${escapeHtml(action)}" data-auto-submit>${inputs}<noscript><button>Continue</button></noscript></form>`
}
