/**
 * Most calls in one tRPC batch request: the server refuses a longer batch (413 `too_many_calls`) before
 * any call runs, and the app's own client (httpBatchLink maxItems) never sends one (issue 41, attack 2).
 */
export const TRPC_MAX_BATCH_CALLS = 20;
