/**
 * The sandbox and the demo shop as real processes on fixed loopback ports, so either can be killed
 * with SIGKILL and started again on the same address with the same data folder.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

export interface Managed {
  /** Every line either process printed, across restarts. */
  readonly output: string[]
  start(): Promise<void>
  kill(): Promise<void>
  stop(): Promise<void>
  readonly starts: number
}

/** A process that prints `ready` when it serves; `start` waits for it (and fails after 20 s). */
export function managed(script: string, env: Record<string, string>, ready: RegExp): Managed {
  const output: string[] = []
  let child: ChildProcess | undefined
  let starts = 0
  const exited = (c: ChildProcess) =>
    new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve())))
  return {
    output,
    get starts() {
      return starts
    },
    start() {
      starts++
      const c = spawn(process.execPath, [ROOT + script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
      child = c
      return new Promise<void>((resolve, reject) => {
        let seen = ''
        const timer = setTimeout(() => reject(new Error(`${script} not ready after 20 s`)), 20_000)
        const onData = (chunk: Buffer) => {
          const text = chunk.toString()
          output.push(...text.split('\n').filter(Boolean))
          seen += text
          if (ready.test(seen)) {
            clearTimeout(timer)
            resolve()
          }
        }
        c.stdout!.on('data', onData)
        c.stderr!.on('data', onData)
        c.once('exit', (code, signal) => {
          clearTimeout(timer)
          if (!ready.test(seen)) reject(new Error(`${script} exited (${code ?? signal}) before it was ready`))
        })
      })
    },
    async kill() {
      if (!child) return
      const c = child
      c.kill('SIGKILL')
      await exited(c)
    },
    async stop() {
      if (!child) return
      const c = child
      c.kill('SIGTERM')
      await exited(c)
    },
  }
}
