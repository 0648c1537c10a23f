/** Where the bench's processes run: which cores, and whether this machine can pin them. */
import { execFileSync } from 'node:child_process'
import { cpus } from 'node:os'

/**
 * Where the processes run. `separate`: the sandbox on core 0, everything else (the shop, its
 * database, this load generator) on core 1: the payment service runs on machines of its own, so the
 * shop's work does not take the service's CPU. `shared`: every process on every core, competing (one
 * small machine for all). Direct and through the shop always run with the same placement.
 */
export const CORES_OF_PLACEMENT = { separate: { service: '0', shop: '1' }, shared: { service: undefined, shop: undefined } }

/** The placements this machine can run: `separate` needs two cores and `taskset` (util-linux). */
export function placementsHere() {
  if (cpus().length < 2) return ['shared']
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' })
    return ['separate', 'shared']
  } catch {
    return ['shared']
  }
}

/**
 * Every thread of `pid`, and what it starts from now on, on `cores` (a taskset list). Undefined: all
 * cores again (after a separate run), and nothing to do where there is no taskset.
 */
export function pinProcess(pid, cores) {
  try {
    // cpus(), not availableParallelism(), which counts only the cores this process is pinned to.
    execFileSync('taskset', ['-a', '-p', '-c', cores ?? `0-${cpus().length - 1}`, String(pid)], { stdio: 'ignore' })
  } catch (error) {
    if (cores !== undefined) throw error
  }
}
