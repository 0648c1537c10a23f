import type { SandboxContext } from '../context.js'

/** The sandbox clock in Unix seconds: what expiry columns and signature timestamps are kept in. */
export const nowSeconds = (context: Pick<SandboxContext, 'now'>): number => Math.floor(context.now().getTime() / 1000)
