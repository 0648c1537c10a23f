/**
 * The WAL's syncs on a thread of their own, in the order asked. On libuv's pool a sync waits behind
 * whatever the process queued there first (WebCrypto, zlib, DNS lookups, bcrypt): every writer of
 * its group waits with it. One thread serves every group of the process (of this copy of the module),
 * started with the first; it holds the process open only while a sync is asked of it.
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

interface Waiter {
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

/** The running thread and the syncs asked of it: a thread that dies fails its own syncs, no other's. */
let thread: { readonly worker: Worker; readonly pending: Map<number, Waiter> } | undefined
let nextId = 0

/** The OS's error as `fs.fdatasync` gives it: its code, errno and syscall. */
const errorOf = ({ message, ...fields }: NonNullable<Reply['error']>) => Object.assign(new Error(message), fields)

function startThread(): NonNullable<typeof thread> {
  const worker = new Worker(SOURCE, { eval: true })
  const pending = new Map<number, Waiter>()
  const started = { worker, pending }
  const settle = (id: number, outcome: (waiter: Waiter) => void) => {
    const waiter = pending.get(id)
    if (waiter === undefined) return
    pending.delete(id)
    if (pending.size === 0) worker.unref()
    outcome(waiter)
  }
  worker.on('message', ({ id, error }: Reply) => settle(id, (w) => (error === undefined ? w.resolve() : w.reject(errorOf(error)))))
  // A thread that died took its syncs' outcome with it: not known to be on disk, so refused.
  const lost = (error: unknown) => {
    if (thread === started) thread = undefined
    for (const id of [...pending.keys()]) settle(id, (w) => w.reject(error))
  }
  worker.on('error', lost)
  worker.on('exit', (code) => lost(Object.assign(new Error(`the sync thread exited (${code})`), { code: 'SYNC_THREAD_EXITED' })))
  // After the listeners: adding one refs the thread again, and an idle thread must let the process exit.
  worker.unref()
  return started
}

/** The running thread, started if there is none (a new one after one died). */
const running = () => {
  thread ??= startThread()
  return thread
}

/** The thread, started if it is not running. */
export const syncThread = (): Worker => running().worker

/** `fdatasync(handle)` on the sync thread, after the syncs asked of it before. */
export function syncOnThread(handle: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const { worker, pending } = running()
    const id = nextId++
    if (pending.size === 0) worker.ref()
    pending.set(id, { resolve, reject })
    worker.postMessage({ id, handle })
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
