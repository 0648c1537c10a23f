import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'
import type { SandboxContext } from '../context.js'

/** The sandbox's Hono environment: served by @hono/node-server, the request body read once before any handler. */
export type SandboxEnv = {
  Bindings: HttpBindings
  Variables: { body: Buffer }
}

/** A request as a handler sees it. */
export type RequestContext = Context<SandboxEnv>

/** A route's handler: the request, and the sandbox's stores, clock and log. */
export type Handler = (c: RequestContext, context: SandboxContext) => Response | Promise<Response>
