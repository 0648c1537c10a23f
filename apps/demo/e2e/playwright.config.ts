import { defineConfig } from '@playwright/test'

/** Debian's Chromium: Playwright cannot download its own browsers on these machines. */
export default defineConfig({
  testDir: '.',
  outputDir: '../../../test-results/demo-playwright',
  timeout: 60_000,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
})
