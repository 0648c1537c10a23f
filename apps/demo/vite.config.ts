import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { subresourceIntegrity } from './build/subresource-integrity.js'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** The shop's pages, built to plain files the shop backend serves under its own CSP. */
export default defineConfig({
  root: here('./src/front'),
  plugins: [subresourceIntegrity()],
  publicDir: false,
  build: {
    outDir: here('./dist/front'),
    emptyOutDir: true,
    // No inline scripts or styles anywhere: the CSP allows 'self' only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: { checkout: here('./src/front/index.html'), admin: here('./src/front/admin.html'), account: here('./src/front/account.html') },
      // Each toolkit package as a script of its own, each with its integrity hash.
      output: {
        manualChunks(id: string) {
          if (/packages\/card-jwe\/|node_modules\/.*\/jose\//.test(id)) return 'card-jwe'
          if (/packages\/browser-info\//.test(id)) return 'browser-info'
          if (/packages\/card-fields\//.test(id)) return 'card-fields'
          if (/packages\/checkout-actions\//.test(id)) return 'checkout-actions'
          // The checkout flow; not "checkout", the page's own script's name.
          if (/packages\/checkout\//.test(id)) return 'checkout-flow'
          return undefined
        },
      },
    },
  },
})
