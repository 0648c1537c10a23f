/**
 * What one request costs the machine, process by process, from Linux's /proc: a process's CPU time
 * is utime + stime of all its threads (worker threads and libuv's pool included), in clock ticks;
 * the machine's busy time less the named processes is "rest" (PostgreSQL's backends, the kernel's
 * own threads). Requests per second times machine ms a request is the cores' busy share (2 x (1 -
 * idle) on two cores): an identity, which says where a path's time goes, not what limits it.
 * Off Linux (no /proc/stat) a meter reads nothing and its result is undefined.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/** utime + stime (proc(5): fields 14 and 15), counted after the command name, which may hold spaces. */
function processTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return Number.NaN // the process has ended: its time is unknown, not zero
  }
}

/** All cores together: busy (user, nice, system, irq, softirq) and idle (idle, iowait); steal is neither. */
function machineTicks() {
  const [user, nice, system, idle, iowait, irq, softirq] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number)
  return { busy: user + nice + system + irq + softirq, idle: idle + iowait }
}

/**
 * Starts counting for the processes `pids` ({ name: pid }); the function it returns stops and gives
 * ms of CPU per request for each name and for the rest of the machine, and the share of the cores idle.
 */
export function startCpuMeter(pids) {
  if (!existsSync('/proc/stat')) return () => undefined
  const names = Object.keys(pids)
  const before = { machine: machineTicks(), processes: names.map((name) => processTicks(pids[name])) }
  return (requests) => {
    const machine = machineTicks()
    const perRequest = (ticks) => Number(((ticks * 1000) / ticksPerSecond / requests).toFixed(3))
    const used = names.map((name, i) => processTicks(pids[name]) - before.processes[i])
    const busy = machine.busy - before.machine.busy
    const idle = machine.idle - before.machine.idle
    return {
      ...Object.fromEntries(names.map((name, i) => [name, perRequest(used[i])])),
      // Signed: the processes' own counts and the machine's sampled ticks are two ways of counting, so a
      // near-zero rest can come out a little below zero.
      rest: perRequest(busy - used.reduce((a, b) => a + b, 0)),
      machine: perRequest(busy),
      idleShare: Number((idle / (busy + idle)).toFixed(2)),
    }
  }
}
