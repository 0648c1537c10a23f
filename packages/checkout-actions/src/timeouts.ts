/**
 * EMV 3-D Secure Protocol and Core Functions Specification v2.2.0, section 5.8: the 3DS Method must
 * finish within 10 seconds; after that the transaction goes on with `threeDSCompInd` "N".
 */
export const THREEDS_METHOD_TIMEOUT_MS = 10_000

/** How long a shopper may take over a challenge before the page gives up (the shop may set its own). */
export const CHALLENGE_TIMEOUT_MS = 10 * 60_000
