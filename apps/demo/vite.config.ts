import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** The shop's pages, built to plain files the shop backend serves under its own CSP. */
export default defineConfig({
  root: here('./src/front'),
  publicDir: false,
  build: {
    outDir: here('./dist/front'),
    emptyOutDir: true,
    // No inline scripts or styles anywhere: the CSP allows 'self' only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: { input: { checkout: here('./src/front/index.html'), admin: here('./src/front/admin.html') } },
  },
})
