/**
 * The demo's sign-in on the basket: "Sign in as test shopper" asks the shop for a session (an
 * HttpOnly cookie the page never reads). Orders made while signed in are the shopper's: the shop
 * saves their cards and offers them at the next checkout.
 */
import { api } from './api.js'

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!

function show(signedIn: boolean): void {
  $('#signed-out').hidden = signedIn
  $('#signed-in').hidden = !signedIn
}

/** Shows whether the shopper is signed in and wires the two buttons; `announce` reads out each change in the page's `words`. */
export async function startShopperSignIn(
  announce: (text: string) => void,
  words: { readonly signedIn: string; readonly signedOut: string },
): Promise<void> {
  // A shop without the demo's sign-in (the README's shops serve this page too): no sign-in offered.
  const session = await api<{ signedIn: boolean }>('/api/shopper').catch(() => undefined)
  if (!session) {
    $('#signed-out').hidden = true
    $('#signed-in').hidden = true
    return
  }
  show(session.signedIn)
  const change = (path: string, signedIn: boolean, focus: string, said: string) => () =>
    void api(path, {})
      .then(() => {
        show(signedIn)
        // The pressed button is hidden now: focus goes to the other one, not to <body>.
        $(focus).focus()
        announce(said)
      })
      .catch((error: unknown) => announce((error as Error).message))
  $('#sign-in').addEventListener('click', change('/api/shopper/sign-in', true, '#sign-out', words.signedIn))
  $('#sign-out').addEventListener('click', change('/api/shopper/sign-out', false, '#sign-in', words.signedOut))
}
