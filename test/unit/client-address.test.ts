import { describe, expect, it } from "vitest";
import { apiEnv } from "../../src/env.js";
import { clientAddressFrom, clientBucketOf, parseAddressRange, type AddressRange } from "../../src/transport/client-address.js";

const ranges = (...texts: string[]): AddressRange[] => texts.map((text) => parseAddressRange(text)!);
const proxies = ranges("127.0.0.2", "10.0.0.0/8", "fd00::/8");

describe("clientAddressFrom", () => {
  it.each([
    ["a peer that is no trusted proxy: its own address, whatever it forwards", "127.0.0.9", "198.51.100.7", "127.0.0.9"],
    ["no proxies trusted at all", "127.0.0.2", "198.51.100.7", "127.0.0.2"],
    ["a trusted proxy: the client it names", "127.0.0.2", "198.51.100.7", "198.51.100.7"],
    [
      "a trusted proxy: the right-most hop it did not add itself, not what the client wrote",
      "127.0.0.2",
      "6.6.6.6, 198.51.100.7",
      "198.51.100.7",
    ],
    ["a chain of trusted proxies", "10.1.2.3", "198.51.100.7, 10.9.9.9, 127.0.0.2", "198.51.100.7"],
    ["IPv6 hops", "fd00::1", "2001:db8::7", "2001:db8::7"],
    ["an IPv4-mapped peer", "::ffff:127.0.0.2", "198.51.100.7", "198.51.100.7"],
    ["an IPv4-mapped hop, as its IPv4", "127.0.0.2", "::ffff:198.51.100.7", "198.51.100.7"],
    ["no header", "127.0.0.2", undefined, "127.0.0.2"],
    ["a hop that is not an address", "127.0.0.2", "198.51.100.7, unknown", "127.0.0.2"],
    ["only trusted hops", "127.0.0.2", "10.0.0.1", "127.0.0.2"],
  ])("%s", (_case, peer, forwardedFor, expected) => {
    const trusted = _case === "no proxies trusted at all" ? [] : proxies;
    expect(clientAddressFrom(peer, forwardedFor, trusted)).toBe(expected);
  });
});

describe("clientBucketOf: what a per-address limit counts", () => {
  it("counts every address of one IPv6 /64 as one client, however it is written", () => {
    const addresses = [
      "2001:db8:1:2::1",
      "2001:db8:1:2::2",
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0db8:0001:0002:0:0:0:7",
      "2001:DB8:1:2::A",
    ];
    expect(new Set(addresses.map(clientBucketOf))).toEqual(new Set(["2001:db8:1:2::/64"]));
  });

  it("counts different /64s apart, also when they share a /48 or differ only in the 64th bit", () => {
    const buckets = ["2001:db8:1:2::1", "2001:db8:1:3::1", "2001:db8:2:2::1", "2001:db8:1:1::1"].map(clientBucketOf);
    expect(new Set(buckets).size).toBe(4);
    expect(clientBucketOf("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
  });

  it("counts an IPv4 address alone, also when written IPv4-mapped", () => {
    expect(clientBucketOf("198.51.100.7")).toBe("198.51.100.7");
    expect(clientBucketOf("198.51.100.8")).toBe("198.51.100.8");
    expect(clientBucketOf("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(clientBucketOf("::ffff:c633:6407")).toBe("198.51.100.7");
    expect(clientBucketOf("127.0.0.1")).toBe("127.0.0.1");
  });

  it("counts the IPv6 loopback as its /64, and what is no address (in-process calls) as itself", () => {
    expect(clientBucketOf("::1")).toBe("::/64");
    expect(clientBucketOf("local")).toBe("local");
  });
});

describe("TRUSTED_PROXIES", () => {
  it("takes addresses and CIDR ranges, comma-separated, and refuses anything else", () => {
    expect(apiEnv.parse({ TRUSTED_PROXIES: " 10.0.0.0/8, 127.0.0.2,fd00::/8 " }).TRUSTED_PROXIES).toEqual([
      "10.0.0.0/8",
      "127.0.0.2",
      "fd00::/8",
    ]);
    expect(apiEnv.parse({}).TRUSTED_PROXIES).toEqual([]);
    for (const wrong of ["proxy.internal", "10.0.0.0/33", "10.0.0"]) {
      expect(apiEnv.safeParse({ TRUSTED_PROXIES: wrong }).success, wrong).toBe(false);
    }
  });
});
