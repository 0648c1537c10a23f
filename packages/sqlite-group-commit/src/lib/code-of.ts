/** The failure's code for a log line (SQLite's, the OS's), never its message: it can quote a row. */
export function codeOf(error: unknown): string {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown }
  if (typeof code === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(code)) return code
  return typeof name === 'string' ? name : 'Error'
}
