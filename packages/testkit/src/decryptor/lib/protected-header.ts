import { undecryptable } from '../errors.js'

/** What a card JWE may say in its protected header. */
export interface CardJweHeader {
  /** Key management: RSA-OAEP-256, or the legacy RSA-OAEP the service still accepts. */
  readonly alg: 'RSA-OAEP-256' | 'RSA-OAEP'
  /** Content encryption: A256GCM, or the legacy A128CBC-HS256. */
  readonly enc: 'A256GCM' | 'A128CBC-HS256'
  /** The payload format's version ("1"). */
  readonly version?: string
  /** Key id, when the sender names the key. */
  readonly kid?: string
  /** Media type of the whole JWE (RFC 7516 section 4.1.11). */
  readonly typ?: string
  /** Media type of the payload (RFC 7516 section 4.1.12). */
  readonly cty?: string
}

const ALGS = new Set(['RSA-OAEP-256', 'RSA-OAEP'])
const ENCS = new Set(['A256GCM', 'A128CBC-HS256'])
/**
 * Parameters a card JWE may carry. Everything else is refused, notably `zip` (compression before
 * encryption leaks length), `crit` (we implement no extensions), and `jku`/`jwk`/`x5u`/`x5c`
 * (a sender must not choose the key).
 */
const ALLOWED = new Set(['alg', 'enc', 'version', 'kid', 'typ', 'cty'])

// A JSON string token (RFC 8259 section 7).
const STRING = String.raw`"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"`
const MEMBER = String.raw`\s*${STRING}\s*:\s*${STRING}\s*`
/** A flat object of string members: all a card JWE header needs, and simple to check for duplicates. */
const FLAT_STRING_OBJECT = new RegExp(String.raw`^\s*\{(?:${MEMBER}(?:,${MEMBER})*)?\}\s*$`)
const STRING_TOKENS = new RegExp(STRING, 'g')

/** Parses and checks the protected header; any problem is the one generic failure. */
export function parseProtectedHeader(bytes: Uint8Array): CardJweHeader {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    throw undecryptable('header: not UTF-8')
  }
  if (!FLAT_STRING_OBJECT.test(text)) throw undecryptable('header: not a JSON object of string members')
  // In a validated flat object the string tokens alternate name, value.
  const names = (text.match(STRING_TOKENS) ?? []).filter((_, i) => i % 2 === 0).map((t) => JSON.parse(t) as string)
  if (new Set(names).size !== names.length) throw undecryptable('header: duplicate member name')
  for (const name of names) if (!ALLOWED.has(name)) throw undecryptable(`header: member "${name}" is not accepted`)
  const header = JSON.parse(text) as Record<string, string>
  if (!ALGS.has(header.alg ?? '')) throw undecryptable('header.alg: not RSA-OAEP-256 or RSA-OAEP')
  if (!ENCS.has(header.enc ?? '')) throw undecryptable('header.enc: not A256GCM or A128CBC-HS256')
  if (header.version !== undefined && header.version !== '1') throw undecryptable('header.version: not "1"')
  return header as unknown as CardJweHeader
}
