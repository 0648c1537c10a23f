/**
 * libuv's thread pool held on purpose, so the syncs (and other file work) queued meanwhile wait in a
 * known order. Each hold is a read of a FIFO of its own that waits for a byte; every hold a test made
 * is released after it, so the next test's file work and syncs run.
 */
import { execFileSync } from 'node:child_process'
import { closeSync, openSync, read as readFd, writeSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach } from 'vitest'

/** The threads of libuv's pool, read from the environment as libuv reads it (atoi, unsigned; 0 is 1; at most 1024). */
export const poolSize = () => {
  const set = process.env.UV_THREADPOOL_SIZE
  if (set === undefined) return 4
  const asked = Number.parseInt(set, 10) || 0
  return asked < 0 ? 1024 : Math.min(Math.max(asked, 1), 1024)
}

/** With io_uring (UV_USE_IO_URING, any number but 0, as libuv reads it) file reads and syncs bypass the pool. */
export const poolHoldsFiles = (Number.parseInt(process.env.UV_USE_IO_URING ?? '0', 10) || 0) === 0

/** `promise`, or a failure after `ms` (within the test's 5 s): a test that waits on a held pool still ends, its holds released. */
export const within = <T>(promise: Promise<T>, ms = 3_000) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms))])

export interface HeldPool {
  /** Queues one more hold, behind the work queued so now: the thread that reaches it stops there. */
  queueHold(): void
  /** Gives back the oldest hold still in place: its thread then runs the queue's next work. */
  releaseOne(): Promise<void>
  /** Gives back every hold. */
  releaseAll(): Promise<void>
}

/** `holdThreadPool(folder)`: every thread of the pool held until released (after each test at the latest). */
export function useThreadPoolHolds(): (folder: string) => HeldPool {
  const inPlace: Array<() => Promise<void>> = []
  afterEach(async () => {
    await Promise.all(inPlace.splice(0).map((release) => release()))
  })
  return (folder) => {
    let made = 0
    const held: Array<() => Promise<void>> = []
    const queueHold = () => {
      const path = join(folder, `hold-${made++}`)
      execFileSync('mkfifo', [path])
      // O_RDWR: opening a FIFO this way does not wait for a writer; a read of it waits for a byte, and a
      // byte written before the read starts is there when it does, so no release is lost.
      const fd = openSync(path, 'r+')
      const done = new Promise<void>((resolve) => readFd(fd, Buffer.alloc(1), 0, 1, null, () => resolve()))
      let released: Promise<void> | undefined
      const release = () => {
        if (released === undefined) {
          writeSync(fd, 'x')
          released = done.then(() => closeSync(fd))
        }
        return released
      }
      held.push(release)
      inPlace.push(release)
    }
    for (let thread = 0; thread < poolSize(); thread++) queueHold()
    return {
      queueHold,
      releaseOne: () => held.shift()?.() ?? Promise.resolve(),
      releaseAll: async () => {
        await Promise.all(held.splice(0).map((release) => release()))
      },
    }
  }
}
