/** The shopper at the bank page: approve, and the return URL's redirectResult. */
export async function approveAtBank(url: string): Promise<string> {
  const page = await fetch(url)
  if (!page.ok) throw new Error(`bank page answered ${page.status}`)
  const back = await fetch(`${url}/approve`, { method: 'POST', body: new URLSearchParams({}), redirect: 'manual' })
  const location = back.headers.get('location')
  if (back.status !== 303 || !location) throw new Error(`bank decision answered ${back.status}`)
  return new URL(location).searchParams.get('redirectResult')!
}
