/**
 * The WAL's syncs on a thread of their own, in the order asked. On libuv's pool a sync waits behind
 * whatever the process queued there first (WebCrypto, zlib, DNS lookups, bcrypt): every writer of
 * its group waits with it. One thread for the process, started with the first group commit; it
 * holds the process open only while a sync is asked of it.
 */
import { Worker } from 'node:worker_threads'

// Evaluated by the thread (CommonJS): no file of its own to find beside a bundled build.
const SOURCE = `
const { parentPort } = require('node:worker_threads')
const { fdatasyncSync } = require('node:fs')
parentPort.on('message', ({ id, handle, hold }) => {
  if (hold !== undefined) return void Atomics.wait(hold, 0, 0)
  try {
    fdatasyncSync(handle)
    parentPort.postMessage({ id })
  } catch (error) {
    parentPort.postMessage({ id, error: { code: error.code, errno: error.errno, syscall: error.syscall, message: error.message } })
  }
})
`

interface Reply {
  readonly id: number
  readonly error?: { code?: string; errno?: number; syscall?: string; message: string }
}

let thread: Worker | undefined
let nextId = 0
const pending = new Map<number, { resolve: () => void; reject: (error: unknown) => void }>()

/** The OS's error as `fs.fdatasync` gives it: its code, errno and syscall. */
const errorOf = ({ message, ...fields }: NonNullable<Reply['error']>) => Object.assign(new Error(message), fields)

function settle(id: number, outcome: (waiter: { resolve: () => void; reject: (error: unknown) => void }) => void): void {
  const waiter = pending.get(id)
  if (waiter === undefined) return
  pending.delete(id)
  if (pending.size === 0) thread?.unref()
  outcome(waiter)
}

/** The thread, started if it is not running (a new one after a crash). */
export function syncThread(): Worker {
  if (thread !== undefined) return thread
  const started = new Worker(SOURCE, { eval: true })
  started.unref()
  started.on('message', ({ id, error }: Reply) => settle(id, (w) => (error === undefined ? w.resolve() : w.reject(errorOf(error)))))
  // A thread that died took its syncs' outcome with it: not known to be on disk, so refused.
  const lost = (error: unknown) => {
    if (thread === started) thread = undefined
    for (const id of [...pending.keys()]) settle(id, (w) => w.reject(error))
  }
  started.on('error', lost)
  started.on('exit', (code) => lost(Object.assign(new Error(`the sync thread exited (${code})`), { code: 'SYNC_THREAD_EXITED' })))
  thread = started
  return started
}

/** `fdatasync(handle)` on the sync thread, after the syncs asked before it. */
export function syncOnThread(handle: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const id = nextId++
    const running = syncThread()
    if (pending.size === 0) running.ref()
    pending.set(id, { resolve, reject })
    running.postMessage({ id, handle })
  })
}

/**
 * For the package's tests: the thread stops at this point of its queue (behind the syncs asked so
 * far) until the returned function is called.
 */
export function holdSyncThread(): () => void {
  const hold = new Int32Array(new SharedArrayBuffer(4))
  syncThread().postMessage({ hold })
  return () => {
    Atomics.store(hold, 0, 1)
    Atomics.notify(hold, 0)
  }
}
