/** The server runtime of this process: scripts/run-tests.mjs runs the runtime projects in Deno and Bun too. */
export function serverRuntime(): 'node' | 'deno' | 'bun' {
  if ('Deno' in globalThis) return 'deno'
  if ((process.versions as { bun?: string }).bun) return 'bun'
  return 'node'
}
