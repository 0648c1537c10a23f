/**
 * Idempotency keys on the calls that create or move money (payments, captures, refunds, cancels),
 * as the widely used checkout APIs take them: a retry with the same key gets the first answer
 * instead of a second payment or a second capture. The client sends one on every call but a GET.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key'
/** 8 to 64 characters of [A-Za-z0-9_-]: a UUID, or a shop's "order-123-attempt-1". */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/
