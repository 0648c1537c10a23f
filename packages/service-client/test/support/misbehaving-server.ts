/**
 * A loopback HTTP server that misbehaves on cue. Raw TCP (node:net) rather than node:http, so a
 * reset, a hang and a body cut short are the same bytes in Node, Deno and Bun. Each request gets
 * its own connection (`connection: close`), so an attempt is one request the server sees.
 */
import { createServer, type Socket } from 'node:net'

/** A request as the server read it, with when it arrived (ms after the server started). */
export interface Received {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly at: number
}

/** What the server does with one request. */
export type Reply = (socket: Socket) => void

function head(status: number, headers: Readonly<Record<string, string>>, length: number): string {
  const lines = Object.entries({ 'content-type': 'application/json', 'content-length': String(length), connection: 'close', ...headers })
  return `HTTP/1.1 ${status} Status\r\n${lines.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`
}

/** The replies the tests use. */
export const reply = {
  /** A whole answer; a string body is sent as is (for malformed answers). */
  json:
    (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Reply =>
    (socket) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body)
      socket.end(head(status, headers, Buffer.byteLength(text)) + text)
    },
  /** The service's error envelope. */
  refusal: (status: number, errorCode: string, headers: Readonly<Record<string, string>> = {}): Reply =>
    reply.json(status, { status, errorCode, message: `refused: ${errorCode}`, errorType: 'validation' }, headers),
  /** The connection dropped after the request was read: the service may have acted. */
  reset: (): Reply => (socket) => void socket.destroy(),
  /** Never answers. */
  hang: (): Reply => () => {},
  /** Headers and the start of a body, then nothing. */
  stalledBody: (): Reply => (socket) => void socket.write(`${head(200, {}, 100)}{"resultCode":`),
}

export interface MisbehavingServer {
  readonly url: string
  /** Every request read, in order. */
  readonly received: Received[]
  /** The `idempotency-key` of each request, in order (undefined where none). */
  keys(): (string | undefined)[]
  close(): Promise<void>
}

/** Starts a server whose `script` decides each reply from the request and its index (0 first). */
export async function misbehavingServer(script: (request: Received, index: number) => Reply): Promise<MisbehavingServer> {
  const received: Received[] = []
  const sockets = new Set<Socket>()
  const started = performance.now()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    let buffer = Buffer.alloc(0)
    let done = false
    socket.on('data', (chunk: Buffer) => {
      if (done) return
      buffer = Buffer.concat([buffer, chunk])
      const end = buffer.indexOf('\r\n\r\n')
      if (end < 0) return
      const [line = '', ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n')
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      )
      const length = Number(headers['content-length'] ?? 0)
      if (buffer.length < end + 4 + length) return
      done = true
      const [method = '', path = ''] = line.split(' ')
      const request = {
        method,
        path,
        headers,
        body: buffer.subarray(end + 4, end + 4 + length).toString('utf8'),
        at: performance.now() - started,
      }
      received.push(request)
      script(request, received.length - 1)(socket)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    keys: () => received.map((r) => r.headers['idempotency-key']),
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A port nothing listens on: a server is opened and closed there. */
export async function closedPort(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}
