/**
 * How long one attempt may hold its delivery (and the worker's job lock): WEBHOOK_TIMEOUT plus time
 * to sign and record. A worker killed mid-delivery frees it when this runs out; a test event is
 * waited for as long.
 */
export const deliveryLeaseMs = (timeoutMs: number) => timeoutMs + 5_000;
