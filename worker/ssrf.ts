import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** Address ranges a webhook may not reach unless private networks are allowed. */
const BLOCKED_RANGES = new Set([
  "unspecified",
  "broadcast",
  "multicast",
  "linkLocal",
  "loopback",
  "private",
  "uniqueLocal",
  "carrierGradeNat",
  "reserved",
  "benchmarking",
  "amt",
  "as112",
  "deprecated",
  "orchid2",
  "droneRemoteIdProtocolEntityTags",
]);

export class RefusedDestinationError extends Error {}

/** True when an address is on the public internet. IPv4-mapped IPv6 is judged as its IPv4. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return !BLOCKED_RANGES.has(parsed.range());
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A dns.lookup for outgoing webhook sockets that refuses non-public answers. It runs at connect
 * time, on the address actually dialled, so a name that re-resolves to a private address
 * (DNS rebinding) is refused too.
 */
export function guardedLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused)
      return callback(new RefusedDestinationError(`${hostname} resolves to non-public address ${refused.address}`), []);
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
