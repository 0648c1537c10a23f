import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import type { ServerResponse } from 'node:http'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
}

/** Serves the built pages; HTML gets the page policy. Paths outside the folder are never read. */
export async function serveStatic(root: string, path: string, response: ServerResponse, policy: string): Promise<boolean> {
  const file = normalize(join(root, path === '/' ? '/index.html' : path))
  // root + sep: a sibling folder such as front-old/ must not pass as inside front/.
  if (!file.startsWith(root.endsWith(sep) ? root : root + sep) || !TYPES[extname(file)]) return false
  let body: Buffer
  try {
    body = await readFile(file)
  } catch {
    return false
  }
  const html = extname(file) === '.html'
  response.writeHead(200, {
    'content-type': TYPES[extname(file)]!,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': html ? 'no-store' : 'public, max-age=31536000, immutable',
    ...(html ? { 'content-security-policy': policy, 'x-frame-options': 'DENY' } : {}),
  })
  response.end(body)
  return true
}
