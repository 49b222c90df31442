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

/**
 * The IPv4 address an IPv6 address carries in its last 32 bits and is delivered to: IPv4-mapped
 * (::ffff:0:0/96), IPv4-compatible (::/96, deprecated, but a resolver or a URL can still give one) and NAT64
 * (64:ff9b::/96, which a NAT64 gateway forwards to the embedded IPv4).
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const parts = address.parts;
  const zero = (from: number, to: number) => parts.slice(from, to).every((part) => part === 0);
  const mappedOrCompatible = zero(0, 5) && (parts[5] === 0 || parts[5] === 0xffff);
  const nat64 = parts[0] === 0x64 && parts[1] === 0xff9b && zero(2, 6);
  if (!mappedOrCompatible && !nat64) return null;
  const [high, low] = [parts[6]!, parts[7]!];
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** True when an address is on the public internet. An IPv6 address embedding an IPv4 one is judged as that IPv4. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  const judged = parsed.kind() === "ipv6" ? (embeddedIPv4(parsed as ipaddr.IPv6) ?? parsed) : parsed;
  return !BLOCKED_RANGES.has(judged.range());
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
