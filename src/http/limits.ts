/** Largest request body the API reads, for REST and GraphQL alike. */
export const MAX_BODY_BYTES = 64 * 1024;
