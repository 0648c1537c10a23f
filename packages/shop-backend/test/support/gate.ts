/** A promise a test opens by hand: a call or a handler waits at it until the test lets it through. */
export interface Gate {
  /** Settles once {@link Gate.open} is called. */
  readonly opened: Promise<void>
  open(): void
}

export function gate(): Gate {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { opened, open }
}
