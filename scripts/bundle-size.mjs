#!/usr/bin/env node
/**
 * Bundle weight of the browser entries, minified and gzip-compressed, as a shop's bundler would
 * ship them. Deterministic (same sources, same bytes), so the budgets are also tests
 * (test/bundle-size.test.ts). Run: `pnpm size`.
 */
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const here = (path) => fileURLToPath(new URL(path, import.meta.url))

/** card-fields' locales, each an entry `@card-jwe/card-fields/locales/<tag>` (as in its pick-locale.ts). */
const CARD_FIELDS_LOCALES = ['en', 'nl', 'de', 'fr', 'es', 'it', 'pt', 'pl', 'sv', 'da', 'nb', 'fi', 'cs', 'ja', 'zh', 'ar']

/**
 * Browser entries and their gzip budgets in bytes (1 kB = 1000 bytes). card-jwe's target is
 * 10 kB, but jose 6's CompactEncrypt alone is 7,020 B and the required verdicts, normalisation and
 * certificate checks add 3.85 kB (see docs/decisions.md, "Bundle budget"); the budget holds the
 * measured size with a small margin, so any growth fails the test.
 */
export const BROWSER_ENTRIES = Object.freeze({
  // A saved card's code-only JWE (encryptSecurityCode, savedCardBrand) cost 288 B: 10,924 -> 11,212 B,
  // and 11,840 -> 12,128 B with browser-info; the budgets keep the same small margin above them.
  'card-jwe': { entry: here('../packages/card-jwe/src/index.ts'), gzipBudget: 11_300 },
  'browser-info': { entry: here('../packages/browser-info/src/index.ts'), gzipBudget: 1_150 },
  'card-jwe + browser-info': { entry: here('./bundle-checkout-page.js'), gzipBudget: 12_200 },
  // Card fields with the card-jwe verdicts they use, the actions, the whole kit. The whole kit was
  // 16,995 B; card-fields' rules moved into pure, Node-tested files cost 128 B (17,123 B), so its
  // budget is 17,200 B: a price paid once, on purpose, and any further growth still fails.
  // The root entry whole, with its default English words: 6,446 B while it also held the Dutch
  // words, 6,140 B with each locale an entry of its own, 6 kB since the saved-card mode is one too.
  // No card data left in a history entry (the fields emptied as the page is left for good, and what
  // a browser put back on Back emptied at the first attach) and the brand of text put in without an
  // event cost about 135 B: 5,912 -> 6,045 B, 5,565 -> 5,701 B the saved-card mode, 19,594 -> 19,703 B a page.
  'card-fields': { entry: here('./bundle-card-fields.js'), gzipBudget: 6_100 },
  'card-fields/saved-card-code': { entry: here('../packages/card-fields/src/saved-card-code/index.ts'), gzipBudget: 5_800 },
  'checkout-actions': { entry: here('../packages/checkout-actions/src/index.ts'), gzipBudget: 3_500 },
  // A fingerprint from an issuer without a 3DS Method ("U" at once, no frame; such a card could not
  // be paid before) cost about 50 B, and a full-screen challenge as tall as the viewport (it was an
  // empty frame's 150 px) about 30: 17,195 -> 17,282 B here, 19,500 -> 19,594 B for the Japanese page.
  'custom checkout (all four)': { entry: here('./bundle-custom-checkout.js'), gzipBudget: 17_500 },
  // The whole page on @card-jwe/checkout in each language: the four above, the flow and the page's
  // one locale (the flow's words and card-fields'), imported by package name as a shop's page does.
  // English was 19,027 B with the flow's English built in; German then 19,835 B, so the flow's root
  // carries no words now: the page passes its locale's.
  ...Object.fromEntries(
    CARD_FIELDS_LOCALES.map((tag) => [
      `checkout page in ${tag} (all five)`,
      {
        entry: {
          contents: [
            "export { mountCheckout } from '@card-jwe/checkout'",
            `export { messages } from '@card-jwe/checkout/locales/${tag}'`,
            `export { messages as cardMessages } from '@card-jwe/card-fields/locales/${tag}'`,
          ].join('\n'),
          resolveDir: here('.'),
        },
        gzipBudget: 19_800,
      },
    ]),
  ),
  // A page with saved cards adds @card-jwe/checkout/saved-cards to the English page above.
  'checkout page in en with saved cards': {
    entry: {
      contents: [
        "export { mountCheckout } from '@card-jwe/checkout'",
        "export { mountSavedCards } from '@card-jwe/checkout/saved-cards'",
        "export { messages } from '@card-jwe/checkout/locales/en'",
        "export { messages as cardMessages } from '@card-jwe/card-fields/locales/en'",
      ].join('\n'),
      resolveDir: here('.'),
    },
    gzipBudget: 20_500,
  },
  // Each locale's words, the one entry a page adds to card-fields for its language.
  ...Object.fromEntries(
    CARD_FIELDS_LOCALES.map((tag) => [
      `card-fields/locales/${tag}`,
      { entry: here(`../packages/card-fields/src/locales/${tag}.ts`), gzipBudget: 700 },
    ]),
  ),
  // And the flow's words for the same language: `@card-jwe/checkout/locales/<tag>`.
  ...Object.fromEntries(
    CARD_FIELDS_LOCALES.map((tag) => [
      `checkout/locales/${tag}`,
      { entry: here(`../packages/checkout/src/locales/${tag}.ts`), gzipBudget: 700 },
    ]),
  ),
})

/** The JWE engine alone, bundled the same way: the floor card-jwe is measured against. */
export const JOSE_FLOOR_ENTRY = here('./bundle-floor-jose.js')

/** Packages that must never reach a browser entry: server-only or far too heavy. */
export const FORBIDDEN_IN_BROWSER = Object.freeze(['@peculiar/x509', 'reflect-metadata', 'tsyringe', 'zod', 'node:'])

/** `entry`: a file's path, or a page's module text (`contents`, resolved from `resolveDir`). */
export async function measure(entry) {
  const result = await build({
    ...(typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: { ...entry, loader: 'js' } }),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0].contents
  return {
    minified: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    inputs: Object.keys(result.metafile.inputs),
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = []
  for (const [name, { entry, gzipBudget }] of Object.entries(BROWSER_ENTRIES)) {
    const { minified, gzip } = await measure(entry)
    rows.push({ entry: name, 'minified (B)': minified, 'gzip (B)': gzip, 'budget (B)': gzipBudget, within: gzip <= gzipBudget })
  }
  const floor = await measure(JOSE_FLOOR_ENTRY)
  rows.push({
    entry: 'jose CompactEncrypt (floor)',
    'minified (B)': floor.minified,
    'gzip (B)': floor.gzip,
    'budget (B)': '-',
    within: '-',
  })
  console.table(rows)
}
