/** A `redirect` action: a GET navigation, or an auto-submitted POST form with the `data` fields. */
export interface RedirectAction {
  readonly url: string
  readonly method?: string
  readonly data?: Record<string, string>
}

export function performRedirect(action: RedirectAction): void {
  const url = new URL(action.url)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('redirect: not an http(s) URL')
  if ((action.method ?? 'GET').toUpperCase() === 'GET') {
    window.location.assign(url.toString())
    return
  }
  const form = document.createElement('form')
  form.method = 'post'
  form.action = url.toString()
  form.hidden = true
  for (const [name, value] of Object.entries(action.data ?? {})) {
    const input = document.createElement('input')
    input.type = 'hidden'
    input.name = name
    input.value = String(value)
    form.append(input)
  }
  document.body.append(form)
  form.submit()
}
