/**
 * Runner-side commands for Vitest browser mode (Playwright provider), for the config's
 * `browser.commands`: the testkit's card capture, keyed with the run sandbox's private key, and
 * `answerSandboxChallenge`. Needs `@card-jwe/sandbox/vitest-global-setup` in `globalSetup`.
 */
import { cardCaptureCommands, type CardCaptureCommands } from '@card-jwe/testkit/vitest-capture'
import type { Page } from '@playwright/test'
import type { BrowserCommand } from 'vitest/node'
import { answerChallenge } from './answer-challenge.js'
import { runSandbox } from './run-sandbox.js'
// The `cardJweSandbox` type of the provided context.
import type {} from './vitest.js'

/** The commands {@link sandboxCommands} makes (a type literal, so it fits `browser.commands`). */
export type SandboxCommands = CardCaptureCommands & {
  /** Answers the sandbox's challenge in the test page: `approve` or `refuse`. */
  answerSandboxChallenge: BrowserCommand<[answer: 'approve' | 'refuse']>
}

/** The capture commands and the challenge answer, for `browser.commands`. */
export function sandboxCommands(): SandboxCommands {
  return {
    ...cardCaptureCommands({
      privateKey: (context) => runSandbox(context.project.getProvidedContext().cardJweSandbox?.baseUrl).privateKeyPem,
    }),
    answerSandboxChallenge: async (context, answer) => {
      const page = (context as unknown as { page?: Page }).page
      if (!page) throw new Error('answerSandboxChallenge needs the Playwright provider (@vitest/browser-playwright)')
      await answerChallenge(page, answer)
    },
  }
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    /** From `@card-jwe/sandbox/vitest-commands`: answers the sandbox's 3-D Secure challenge. */
    answerSandboxChallenge: (answer: 'approve' | 'refuse') => Promise<void>
  }
}
