/**
 * The OpenAI voice calls wing (ARCHITECTURE.md, "OpenAI voice calls"; docs/decisions/009 and 015):
 * `registry.ts` opens, settles and hands over the calls of `ctx.callRegistry`, `supervisor.ts`
 * supervises one call, `leases.ts` and `lease-rows.ts` keep each call's database lease. Code
 * outside this folder imports it through this door only (eslint.config.js).
 */
export { HANDOVER_WAIT_MS } from './lease-rows';
export { startCallLeases } from './leases';
export { CALL_RUNNING, TOKEN_REFUSED, endRunningCall, handOverAll, openRealtimeCall, runningCall, settleRealtimeCall } from './registry';
export { END_ABANDONED, END_RECONNECTED, INAUDIBLE } from './supervisor';
export type { CallSupervisor } from './supervisor';
