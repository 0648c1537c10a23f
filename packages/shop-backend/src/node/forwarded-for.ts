import { BlockList, isIP } from 'node:net'

/** `::ffff:203.0.113.7` (how a dual-stack socket names an IPv4 peer) as `203.0.113.7`; others as they are. */
function unmapped(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  return mapped ? mapped[1]! : address
}

/** An `X-Forwarded-For` entry's address: without the port some proxies add (`203.0.113.7:5123`, `[2001:db8::1]:443`). */
function entryAddress(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry)
  if (bracketed) return bracketed[1]!
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry)
  return withPort ? withPort[1]! : entry
}

const familyOf = (address: string) => (isIP(address) === 4 ? 'ipv4' : 'ipv6')

/**
 * Whether an address is one of the trusted proxies: `entries` are addresses (`10.0.0.7`, `::1`) and
 * subnets (`10.0.0.0/8`, `fd00::/8`). An entry that is neither is refused at once, naming it.
 */
export function trustedProxies(entries: readonly string[]): (address: string) => boolean {
  const list = new BlockList()
  for (const entry of entries) {
    const [rawAddress = '', prefix, ...rest] = entry.trim().split('/')
    const address = unmapped(rawAddress)
    const family = isIP(address)
    const bits = prefix === undefined ? undefined : /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN
    if (family === 0 || rest.length > 0 || (bits !== undefined && !(bits <= (family === 4 ? 32 : 128))))
      throw new TypeError(`trustProxy: ${JSON.stringify(entry)} is not an IP address or a subnet (address/prefix length)`)
    if (bits === undefined) list.addAddress(address, familyOf(address))
    else list.addSubnet(address, bits, familyOf(address))
  }
  return (address) => {
    const plain = unmapped(address)
    return isIP(plain) !== 0 && list.check(plain, familyOf(plain))
  }
}

/**
 * The client's address as trusted proxies vouch for it: the socket's peer, unless that is a trusted
 * proxy; then the `X-Forwarded-For` entries from the right (each proxy appends the peer it saw), up to
 * the first that is not a trusted proxy. Entries left of that one are the client's to write and are
 * never read. All trusted: the left-most. An entry that is no address where one is needed: none
 * (`undefined`), rather than a proxy's address taken for the shopper's.
 */
export function forwardedClient(
  socketAddress: string | undefined,
  forwardedFor: string | readonly string[] | undefined,
  isTrusted: (address: string) => boolean,
): string | undefined {
  if (socketAddress === undefined || !isTrusted(socketAddress)) return socketAddress
  const header = typeof forwardedFor === 'string' ? forwardedFor : (forwardedFor ?? []).join(',')
  const entries = header
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  let client = unmapped(socketAddress)
  for (let i = entries.length - 1; i >= 0; i--) {
    const address = unmapped(entryAddress(entries[i]!))
    if (isIP(address) === 0) return undefined
    client = address
    if (!isTrusted(address)) break
  }
  return client
}
