/**
 * Bounded load on loopback with autocannon: pre-built requests, each sent exactly once. `meter`, if
 * given, starts with the load and returns a function called at the last response with the number
 * of requests (see process-cpu.mjs); what it returns is the result's `measured`.
 */
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'

export function runLoad({ url, requests, connections = 16, meter }) {
  let next = 0
  let answered = 0
  let measured
  const started = performance.now()
  let lastResponse = started
  // What each failed request met (ECONNRESET, a timeout), so a bench that stops on errors says which.
  const errorKinds = {}
  const stopMeter = meter?.()
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        amount: requests.length,
        timeout: 30,
        requests: [
          {
            setupRequest(request) {
              const r = requests[next++ % requests.length]
              return { ...request, method: r.method, path: r.path, headers: r.headers, body: r.body }
            },
          },
        ],
      },
      // autocannon's own `duration` counts whole one-second ticks (and it notices the end on a tick):
      // 1188 requests in 2.4 s read as 1188/3.01 = 395/s. Start to last response is the measure.
      (error, result) => {
        if (error) return reject(error)
        // Some requests failed: the meter stops here, late by up to a tick, rather than not at all.
        measured ??= stopMeter?.(answered)
        resolve({ ...result, wallSeconds: (lastResponse - started) / 1000, measured, errorKinds })
      },
    )
    instance.on('reqError', (error) => {
      const kind = error?.code ?? error?.message ?? 'unknown'
      errorKinds[kind] = (errorKinds[kind] ?? 0) + 1
    })
    instance.on('response', () => {
      lastResponse = performance.now()
      // The meter stops here, not when autocannon calls back: that waits for its next one-second tick.
      if (++answered === requests.length) measured = stopMeter?.(answered)
    })
  })
}

export function summary(result) {
  return {
    requests: result.requests.total,
    perSecond: Math.round(result['2xx'] / result.wallSeconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    ...(Object.keys(result.errorKinds ?? {}).length > 0 ? { errorKinds: result.errorKinds } : {}),
    seconds: Number(result.wallSeconds.toFixed(2)),
    ...(result.measured ? { cpu: result.measured } : {}),
  }
}
