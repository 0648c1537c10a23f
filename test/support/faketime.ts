/**
 * Whether this process runs under libfaketime (Debian's `faketime` puts it in LD_PRELOAD), and what
 * cannot run reliably there. The suite leaves those out by itself and says so, whoever starts it
 * under faketime: they run in the real-clock pass.
 */
export const UNDER_FAKETIME = /libfaketime/.test(process.env.LD_PRELOAD ?? '')

/** Why each left-out part cannot run under libfaketime (seen on this kind of machine). */
export const FAKETIME_LEFT_OUT = Object.freeze({
  firefox: 'Firefox ESR does not start under libfaketime',
  webkit: 'WebKitGTK opens no window and no WebDriver endpoint under libfaketime',
  deno: 'a Deno under libfaketime now and then exits 1 after passing',
})

/** Test files this pass leaves out, each with the reason; the summary prints them. */
export const FAKETIME_LEFT_OUT_FILES = Object.freeze([
  {
    file: 'test/publish/tarballs.test.ts',
    reason: 'its shop project installs from the npm registry, whose TLS certificates are not valid years ahead',
  },
])
