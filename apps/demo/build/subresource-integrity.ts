import { createHash } from 'node:crypto'
import type { Plugin } from 'vite'

/** Written next to the pages: every script and style of every page with its SRI hash. */
export const INTEGRITY_MANIFEST = 'integrity.json'

/**
 * Subresource Integrity for the built pages: every `<script src>`, `<link rel="modulepreload">` and
 * stylesheet link gets `integrity="sha384-…"` of the file the build wrote, so a script changed on
 * the server (or on a CDN in front of it) is refused by the browser. The hashes are printed and
 * written to dist/front/integrity.json, the input of the script inventory (PCI DSS 6.4.3).
 *
 * The modules a page's script imports get theirs from an import map (`"integrity"`, HTML 8.1.5.3):
 * WebKit imports a module again without the integrity its modulepreload link carried, so without
 * the map an altered card-jwe chunk ran in WebKit (found by the engines' end-to-end test). The map
 * is the one inline script; the server allows it by its hash (`importMapHashes`).
 */
export function subresourceIntegrity(): Plugin {
  const manifest: Record<string, Array<{ file: string; integrity: string }>> = {}
  return {
    name: 'card-jwe-subresource-integrity',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle
        if (!bundle) return html
        const page = context.filename.split('/').pop()!
        const entries: Array<{ file: string; integrity: string }> = []
        const tagged = html.replace(
          /<(script|link)\b([^>]*?)\s(src|href)="\/([^"]+)"([^>]*)>/g,
          (tag, name: string, before: string, attribute: string, file: string, after: string) => {
            const output = bundle[file]
            if (!output) return tag
            const source = output.type === 'chunk' ? output.code : output.source
            const integrity = `sha384-${createHash('sha384').update(source).digest('base64')}`
            entries.push({ file, integrity })
            return `<${name}${before} ${attribute}="/${file}" integrity="${integrity}"${after}>`
          },
        )
        manifest[page] = entries
        const scripts = Object.fromEntries(entries.filter((e) => e.file.endsWith('.js')).map((e) => [`/${e.file}`, e.integrity]))
        const importMap = `<script type="importmap">${JSON.stringify({ integrity: scripts })}</script>`
        // Before the first module script: an import map must come before any module is fetched.
        return tagged.replace(/<script type="module"/, `${importMap}\n    <script type="module"`)
      },
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: INTEGRITY_MANIFEST, source: `${JSON.stringify(manifest, null, 2)}\n` })
      // Printed whatever the log level: these lines are the build's record for the script inventory.
      for (const [page, entries] of Object.entries(manifest)) {
        for (const entry of entries) process.stdout.write(`SRI ${page} /${entry.file} ${entry.integrity}\n`)
      }
    },
  }
}
