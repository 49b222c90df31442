import ipaddr from "ipaddr.js";

/** An address range: an IP address (one address) or a CIDR range. */
export type AddressRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses `10.0.0.0/8` or `127.0.0.1` (a range of one); null when it is neither. */
export function parseAddressRange(text: string): AddressRange | null {
  if (ipaddr.isValidCIDR(text)) return ipaddr.parseCIDR(text);
  if (!ipaddr.isValid(text)) return null;
  const address = ipaddr.process(text);
  return [address, address.kind() === "ipv4" ? 32 : 128];
}

const inAny = (address: string, ranges: readonly AddressRange[]) => {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
};

/**
 * The address a call came from. The socket's peer, unless the peer is one of the operator's
 * trusted proxies: then the right-most address of X-Forwarded-For that is not a trusted proxy (the
 * one the nearest trusted proxy saw), since a client can put anything to the left of it. A header
 * with no usable address leaves the peer.
 */
export function clientAddressFrom(
  peer: string,
  forwardedFor: string | null | undefined,
  trusted: readonly AddressRange[],
): string {
  if (!forwardedFor || !inAny(peer, trusted)) return peer;
  const hops = forwardedFor.split(",").map((hop) => hop.trim());
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!ipaddr.isValid(hop)) return peer;
    if (!inAny(hop, trusted)) return ipaddr.process(hop).toString();
  }
  return peer;
}

/**
 * What a per-address limit counts a client as (the rate limits of calls without a valid key, the
 * pay page's, the open subscription streams): an IPv4 address alone, also one written as an
 * IPv4-mapped IPv6 address (`::ffff:198.51.100.7`); an IPv6 address as its /64 (`2001:db8:1:2::/64`),
 * since one host or home is usually given a whole /64 and could otherwise take a fresh address for
 * every call. Anything that is no address ("local", in-process calls) counts as itself.
 */
export function clientBucketOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}
