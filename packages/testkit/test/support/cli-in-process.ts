import { Readable, Writable } from 'node:stream'
import { main } from '../../src/cli/main.js'

/** What one CLI run gave. */
export interface Run {
  code: number
  stdout: string
  stderr: string
}

/** The same CLI in this process, for properties over many inputs. */
export async function cliInProcess(args: string[], stdin: string): Promise<Run> {
  let stdout = ''
  let stderr = ''
  const sink = (append: (s: string) => void) =>
    new Writable({
      write: (chunk, _enc, done) => {
        append(String(chunk))
        done()
      },
    })
  const code = await main(args, { stdin: Readable.from([stdin]), stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)) })
  return { code, stdout, stderr }
}
