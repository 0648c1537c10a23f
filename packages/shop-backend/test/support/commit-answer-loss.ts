/**
 * A loopback TCP proxy in front of the PostgreSQL server that, once armed, loses the answer of the
 * next statement whose text it sees: the server runs and commits it, and the client's connection
 * drops before a byte of its answer arrives. What a network fault between commit and answer does.
 */
import { type AddressInfo, connect, createServer, type Socket } from 'node:net'

/** The proxy: `url` is the database's connection string through it. */
export interface CommitAnswerLoss {
  readonly url: string
  /** Loses the answer of the next statement whose text contains `text` (a Parse or a simple Query). */
  loseAnswerOf(text: string): void
  /** How many answers it has lost. */
  lost(): number
  close(): Promise<void>
}

/** Reads whole messages (a type byte, then a length that counts itself) off a stream's chunks. */
function messageReader(startup: boolean): (chunk: Buffer) => Array<{ type: string; body: Buffer }> {
  let pending = Buffer.alloc(0)
  let first = startup // the client's startup message has no type byte
  return (chunk) => {
    pending = Buffer.concat([pending, chunk])
    const messages: Array<{ type: string; body: Buffer }> = []
    for (;;) {
      const head = first ? 0 : 1
      if (pending.length < head + 4) break
      const length = pending.readUInt32BE(head)
      if (pending.length < head + length) break
      messages.push({ type: first ? '' : String.fromCharCode(pending[0]!), body: pending.subarray(head + 4, head + length) })
      pending = pending.subarray(head + length)
      first = false
    }
    return messages
  }
}

export async function startCommitAnswerLoss(databaseUrl: string): Promise<CommitAnswerLoss> {
  const target = new URL(databaseUrl)
  let armed: string | undefined
  let lostCount = 0
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname)
    sockets.add(client).add(upstream)
    const fromClient = messageReader(true)
    const fromServer = messageReader(false)
    let doomed = false
    client.on('data', (chunk) => {
      for (const { type, body } of fromClient(chunk)) {
        if (armed !== undefined && (type === 'P' || type === 'Q') && body.includes(armed)) {
          armed = undefined
          doomed = true
        }
      }
      upstream.write(chunk)
    })
    upstream.on('data', (chunk) => {
      const messages = fromServer(chunk)
      if (!doomed) {
        client.write(chunk)
        return
      }
      // ReadyForQuery: the statement ran and committed. None of its answer reaches the client.
      if (messages.some((m) => m.type === 'Z')) {
        lostCount++
        client.destroy()
        upstream.destroy()
      }
    })
    const end = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = new URL(databaseUrl)
  url.hostname = '127.0.0.1'
  url.port = String((server.address() as AddressInfo).port)
  return {
    url: url.toString(),
    loseAnswerOf: (text) => {
      armed = text
    },
    lost: () => lostCount,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
