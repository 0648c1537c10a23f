// Whether a feed record reads as the back end's FeedRecord: a port (the service client, a shop's own) may hand over anything.
import * as z from 'zod'
import type { FeedRecord } from '../updated-payments-feed.js'

const AmountSchema = z.object({ currency: z.string(), value: z.int() })

/** The fields of a record the poller reads (payment-service.ts, FeedRecord); anything else may be there too. */
const FeedRecordSchema = z.looseObject({
  sequence: z.int(),
  pspReference: z.string().min(1),
  status: z.string(),
  amount: AmountSchema,
  capturedAmount: AmountSchema,
  refundedAmount: AmountSchema,
  metadata: z.record(z.string(), z.unknown()).optional(),
})

/** True when the poller can plan `record`; otherwise it is kept as an `UNREADABLE_RECORD` problem. */
export const readsAsFeedRecord = (record: unknown): record is FeedRecord => FeedRecordSchema.safeParse(record).success
