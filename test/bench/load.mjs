/** Bounded load on loopback with autocannon: pre-built requests, each sent exactly once. */
import autocannon from 'autocannon'

export function runLoad({ url, requests, connections = 16 }) {
  let next = 0
  return new Promise((resolve, reject) => {
    autocannon(
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
      (error, result) => (error ? reject(error) : resolve(result)),
    )
  })
}

export function summary(result) {
  return {
    requests: result.requests.total,
    perSecond: Math.round(result['2xx'] / (result.duration || 1)),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    seconds: Number(result.duration.toFixed(2)),
  }
}
