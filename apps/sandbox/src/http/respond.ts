import type { ServerResponse } from 'node:http'
import type { SandboxResponse } from './types.js'

/** Sandbox pages run their scripts from /static only, and may be framed (3-D Secure iframes). */
// img-src data: for the page's own empty icon: without one Firefox asks for /favicon.ico and reports the refusal.
const PAGE_CSP =
  "default-src 'none'; img-src data:; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
  "form-action *; frame-ancestors http: https:; base-uri 'none'"

export function send(response: ServerResponse, result: SandboxResponse): void {
  response.setHeader('cache-control', 'no-store')
  response.setHeader('x-content-type-options', 'nosniff')
  for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, value)
  if (result.location !== undefined) {
    response.writeHead(result.status, { location: result.location }).end()
  } else if (result.html !== undefined) {
    response.writeHead(result.status, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP }).end(result.html)
  } else if (result.script !== undefined) {
    response.writeHead(result.status, { 'content-type': 'text/javascript; charset=utf-8' }).end(result.script)
  } else {
    response
      .writeHead(result.status, { 'content-type': 'application/json' })
      .end(result.json === undefined ? '' : JSON.stringify(result.json))
  }
}

export const json = (json: unknown, status = 200): SandboxResponse => ({ status, json })
export const html = (html: string, status = 200): SandboxResponse => ({ status, html })

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
