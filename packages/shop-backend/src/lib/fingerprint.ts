/** SHA-256 (hex) of a JSON value: how a repeated submission is recognised without keeping the card blob. */
export async function fingerprintOf(value: unknown): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(value)))
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')
}
