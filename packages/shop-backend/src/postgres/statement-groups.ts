import { errorCodeOf } from '../store/error-code.js'
import type { Log } from '../telemetry/log.js'

/** How one kind of write is sent: alone, or many as one statement. */
export interface GroupedWrite<Job, Result> {
  /** What the jobs are, plural, for the log ("attempt inserts"). */
  readonly what: string
  /** Two jobs that share any of these never go in one group: each is judged against what is committed. */
  keysOf(job: Job): readonly string[]
  /** The order of a group's rows (a lock order between instances). */
  orderOf(job: Job): string
  /** One job as its own statement. */
  one(job: Job): Promise<Result>
  /**
   * One job sent again alone after its group failed: the group may have committed before its answer
   * was lost, so a job that finds its own write answers as if it had just made it.
   */
  again(job: Job): Promise<Result>
  /** A group (two or more jobs) as one statement and one commit: one result per job, in the group's order. */
  many(jobs: readonly Job[]): Promise<Result[]>
}

interface Queued<Job, Result> {
  readonly job: Job
  readonly resolve: (result: Result) => void
  readonly reject: (error: unknown) => void
}

/**
 * A write sent in groups: the jobs asked for while one group is being written go together as the
 * next, one statement and one commit for many requests instead of one each. Each caller still learns
 * only of its own job, and only after the commit. A group that fails (a row PostgreSQL refuses, a
 * deadlock it broke, a lost connection) is sent again one job a statement, so each caller gets its
 * own answer or error. A group that committed before its answer was lost would read, when sent
 * again, as lost races (`ON CONFLICT DO NOTHING`, a version that moved on), and the ledger would wait
 * on a claim that is its own: each job sent again (`again`) looks for its own write first.
 */
export function createStatementGroups<Job, Result>(
  write: GroupedWrite<Job, Result>,
  log: Log,
): {
  run(job: Job): Promise<Result>
  /** Resolves once every job asked for so far is answered (for `close`). */
  settled(): Promise<void>
} {
  let queue: Array<Queued<Job, Result>> = []
  let writing: Promise<void> | undefined

  /**
   * The next group from the queue: no two of it share a key. A job left for later keeps its keys
   * taken, so no job asked for after it with one of them goes first.
   */
  function takeGroup(): Array<Queued<Job, Result>> {
    const group: Array<Queued<Job, Result>> = []
    const rest: Array<Queued<Job, Result>> = []
    const taken = new Set<string>()
    for (const item of queue) {
      const keys = write.keysOf(item.job)
      if (keys.some((k) => taken.has(k))) rest.push(item)
      else group.push(item)
      for (const k of keys) taken.add(k)
    }
    queue = rest
    const order = new Map(group.map((item) => [item, write.orderOf(item.job)]))
    return group.sort((a, b) => (order.get(a)! < order.get(b)! ? -1 : order.get(a)! > order.get(b)! ? 1 : 0))
  }

  /** One job alone; whatever it throws, sync or not, reaches its caller and no one else. */
  function sendOne(item: Queued<Job, Result>, send = write.one): Promise<void> {
    return Promise.resolve()
      .then(() => send(item.job))
      .then(item.resolve, item.reject)
  }

  async function writeGroup(group: ReadonlyArray<Queued<Job, Result>>): Promise<void> {
    if (group.length === 1) {
      const [item] = group as [Queued<Job, Result>]
      await sendOne(item)
      return
    }
    let results: Result[]
    try {
      results = await write.many(group.map((item) => item.job))
      if (results.length !== group.length) throw new Error('a group statement answered for the wrong number of jobs')
    } catch (error) {
      // Said, not thrown: each caller still gets its own answer below. A group that fails every time
      // would otherwise cost a statement a job without anyone knowing.
      const code = String(errorCodeOf(error))
      log(`postgres store: a group of ${group.length} ${write.what} failed (${code}); each is sent again alone`, 'warn', {
        component: 'store',
        code,
        writes: group.length,
      })
      await Promise.all(group.map((item) => sendOne(item, write.again)))
      return
    }
    for (const [i, item] of group.entries()) item.resolve(results[i]!)
  }

  async function writeAll(): Promise<void> {
    // setImmediate: after this turn's I/O callbacks, so the jobs they ask for join the group.
    await new Promise((resolve) => setImmediate(resolve))
    try {
      while (queue.length > 0) await writeGroup(takeGroup())
    } catch (error) {
      // Only a key or order function can throw here: no caller is left waiting.
      for (const item of queue.splice(0)) item.reject(error)
    } finally {
      writing = undefined
    }
  }

  return {
    run: (job) =>
      new Promise<Result>((resolve, reject) => {
        queue.push({ job, resolve, reject })
        writing ??= writeAll()
      }),
    settled: async () => {
      await writing
    },
  }
}
