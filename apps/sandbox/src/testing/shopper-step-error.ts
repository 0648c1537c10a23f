/** Why `completeShopperStep` could not do a step: a test branches on `code`, not on the words. */
export type ShopperStepErrorCode =
  /** A step page answered an error: the step is over (done already) or not this sandbox's. */
  | 'STEP_NOT_OPEN'
  /** A step page answered without what the page would send on (no CRes, transStatus or redirectResult). */
  | 'STEP_WITHOUT_RESULT'

/** A shopper's step the sandbox's pages did not let `completeShopperStep` finish. */
export class ShopperStepError extends Error {
  /** For stack traces and logs; recognise the error with `instanceof`. */
  override readonly name = 'ShopperStepError'

  constructor(
    /** What went wrong, stable across versions. */
    readonly code: ShopperStepErrorCode,
    /** The step page's HTTP status. */
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}
