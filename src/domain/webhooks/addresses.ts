import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** Bytes 0-15 of an IPv6 address holding an embedded IPv4 address, by RFC 6052 prefix length (u octet, byte 8, skipped). */
const RFC6052_POSITIONS: Record<number, number[]> = {
  48: [6, 7, 9, 10],
  56: [7, 9, 10, 11],
  64: [9, 10, 11, 12],
  96: [12, 13, 14, 15],
};

/**
 * The IPv4 addresses an IPv6 address may deliver to, for the forms that carry one: IPv4-mapped
 * (::ffff:0:0/96), IPv4-compatible (::/96, deprecated, but a resolver or a URL can still give one),
 * RFC 6145 IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16, the IPv4 in
 * bits 16-47) and local-use NAT64 (64:ff9b:1::/48, RFC 8215), whose operator may embed the IPv4 at
 * any RFC 6052 prefix length from /48 to /96, so every place it may sit is a candidate. Null for an
 * address that carries none.
 */
function embeddedIPv4s(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const bytes = address.toByteArray();
  const at = (positions: number[]) => new ipaddr.IPv4(positions.map((i) => bytes[i]!));
  const parts = address.parts;
  const zero = (from: number, to: number) => parts.slice(from, to).every((part) => part === 0);
  const mappedOrCompatible = zero(0, 5) && (parts[5] === 0 || parts[5] === 0xffff);
  const translated = zero(0, 4) && parts[4] === 0xffff && parts[5] === 0;
  const nat64 = parts[0] === 0x64 && parts[1] === 0xff9b && zero(2, 6);
  if (mappedOrCompatible || translated || nat64) return [at(RFC6052_POSITIONS[96]!)];
  if (parts[0] === 0x64 && parts[1] === 0xff9b && parts[2] === 1) return Object.values(RFC6052_POSITIONS).map(at);
  if (parts[0] === 0x2002) return [at([2, 3, 4, 5])];
  return null;
}

/**
 * True when an address is on the public internet: ordinary unicast, outside every special-purpose
 * range (loopback, private, link-local, multicast, documentation, Teredo, …). An IPv6 address that
 * carries an IPv4 one is judged as that IPv4 (as all of its candidates, where its place is not fixed);
 * Teredo (2001::/32) is refused, since the IPv4 it reaches is the relay's choice, not the address's.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const carried = embeddedIPv4s(parsed as ipaddr.IPv6);
  if (carried) return carried.every((ipv4) => ipv4.range() === "unicast");
  return parsed.range() === "unicast";
}

/**
 * True when a webhook URL's host is a literal address off the public internet (an IP literal, or
 * `localhost` and its subdomains, which always name loopback). Names are judged where they are
 * dialled: the worker refuses a name that resolves to such an address.
 */
export function namesNonPublicAddress(url: URL): boolean {
  // A name may end in the root's dot (`localhost.`), which names the same host.
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}
