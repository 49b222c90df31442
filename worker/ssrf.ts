import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { isPublicAddress } from "../src/domain/webhooks/addresses.js";

export class RefusedDestinationError extends Error {}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A dns.lookup for outgoing webhook sockets that refuses non-public answers. It runs at connect
 * time, on the address actually dialled, so a name that re-resolves to a private address
 * (DNS rebinding) is refused too. The refusal names the host but never the address it resolved to:
 * it reaches the merchant (an attempt's error, a ping's answer), who must not learn from it which
 * internal addresses the service's names lead to.
 */
export function guardedLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) return callback(new RefusedDestinationError(`the address of ${hostname} is not public`), []);
    const all = (options as { all?: boolean }).all;
    if (all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

/** Refuses a URL whose host is a literal non-public IP (no lookup happens for those). */
export function assertPublicLiteral(url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && !isPublicAddress(host)) throw new RefusedDestinationError(`${host} is not a public address`);
}
