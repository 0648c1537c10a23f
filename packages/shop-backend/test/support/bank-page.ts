/** The shopper at the bank page: a decision (approve by default), and the return URL's redirectResult. */
export async function decideAtBank(url: string, decision: 'approve' | 'cancel'): Promise<string> {
  const page = await fetch(url)
  if (!page.ok) throw new Error(`bank page answered ${page.status}`)
  const back = await fetch(`${url}/${decision}`, { method: 'POST', body: new URLSearchParams({}), redirect: 'manual' })
  const location = back.headers.get('location')
  if (back.status !== 303 || !location) throw new Error(`bank decision answered ${back.status}`)
  return new URL(location).searchParams.get('redirectResult')!
}

/** The shopper approves at the bank page: the return URL's redirectResult. */
export const approveAtBank = (url: string): Promise<string> => decideAtBank(url, 'approve')
