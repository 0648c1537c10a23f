import { notFound, SandboxError } from '../errors.js'
import type { Params, SandboxRequest, SandboxResponse } from './types.js'

export type Handler<C> = (request: SandboxRequest, params: Params, context: C) => SandboxResponse | Promise<SandboxResponse>

interface Route<C> {
  readonly method: string
  readonly pattern: RegExp
  readonly names: string[]
  readonly handler: Handler<C>
}

/** Method plus a path pattern with `{name}` segments; a segment matches [A-Za-z0-9_-]{1,64}. */
export class Router<C> {
  private readonly routes: Route<C>[] = []

  add(method: string, path: string, handler: Handler<C>): this {
    const names: string[] = []
    const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name)
      return '([A-Za-z0-9_-]{1,64})'
    })
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), names, handler })
    return this
  }

  find(method: string, path: string): { handler: Handler<C>; params: Params } {
    let pathMatched = false
    for (const route of this.routes) {
      const match = route.pattern.exec(path)
      if (!match) continue
      pathMatched = true
      if (route.method !== method) continue
      return { handler: route.handler, params: Object.fromEntries(route.names.map((n, i) => [n, match[i + 1]!])) }
    }
    if (pathMatched) throw new SandboxError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on this path`)
    throw notFound('path')
  }
}
