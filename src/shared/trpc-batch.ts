/**
 * Calls per tRPC batch request. Without a bound one request could carry thousands of calls (a
 * 100 kB POST of bulk-status mutations, each touching 100 issues): work proportional to an
 * unchecked input. The server refuses longer batches with 400; the client splits at the same size.
 */
export const MAX_TRPC_BATCH = 10;
