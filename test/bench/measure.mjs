/** Timing helpers: operations per second over a fixed time, with N operations in flight. */
import { performance } from 'node:perf_hooks'

/** Runs `fn` repeatedly for `seconds` with `concurrency` in flight (after a warm-up); ops per second. */
export async function opsPerSecond(fn, { seconds = 1.5, concurrency = 1, warmup = 100 } = {}) {
  for (let i = 0; i < warmup; i++) await fn()
  let done = 0
  const start = performance.now()
  const end = start + seconds * 1000
  const worker = async () => {
    while (performance.now() < end) {
      await fn()
      done++
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return done / ((performance.now() - start) / 1000)
}

export const round = (n, digits = 0) => Number(n.toFixed(digits))
export const ratio = (a, b) => round(a / b, 2)
