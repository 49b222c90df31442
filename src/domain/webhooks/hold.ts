/**
 * The SET of a delivery held for its disabled endpoint: not sent, no job, and why. The worker holds
 * one whose endpoint is disabled when its attempt comes, or when it disables the endpoint; an
 * endpoint's update holds those waiting when the merchant disables it. A recovery sends them.
 */
export const HOLD = "state = 'HELD', enqueued_at = NULL, last_error = 'its endpoint is disabled'";
