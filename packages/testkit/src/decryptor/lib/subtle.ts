/** The WebCrypto the decryptor runs on, in Node and in browsers alike. */
export function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle
  if (!s) throw new Error('crypto.subtle is unavailable (Node >= 20, or a browser page in a secure context)')
  return s
}

/** The WebCrypto APIs take ArrayBuffer-backed views; ours always are. */
export function buf(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes as Uint8Array<ArrayBuffer>
}
