import type { FetchLike } from '../fetch-like.js'
import { nodeHttpFetch } from './node-http-fetch.js'

/** On Node: node:http with kept-alive connections (package.json `imports`, condition `node`). */
export const defaultFetch = (): FetchLike | undefined => nodeHttpFetch
