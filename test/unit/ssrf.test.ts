import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { isPublicAddress } from "../../src/domain/webhooks/addresses.js";
import { assertPublicLiteral, guardedLookup, RefusedDestinationError } from "../../worker/ssrf.js";

describe("isPublicAddress", () => {
  it.each([
    ["loopback", "127.0.0.1"],
    ["loopback", "127.255.255.254"],
    ["loopback", "::1"],
    ["private 10/8", "10.0.0.1"],
    ["private 172.16/12", "172.16.0.1"],
    ["private 172.16/12", "172.31.255.255"],
    ["private 192.168/16", "192.168.1.1"],
    ["link-local", "169.254.169.254"],
    ["link-local", "fe80::1"],
    ["multicast", "224.0.0.1"],
    ["multicast", "ff02::1"],
    ["broadcast", "255.255.255.255"],
    ["unspecified", "0.0.0.0"],
    ["unspecified", "::"],
    ["carrier-grade NAT", "100.64.0.1"],
    ["unique local", "fc00::1"],
    ["unique local", "fd12:3456::1"],
    ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
    ["IPv4-mapped private", "::ffff:10.0.0.1"],
    ["IPv4-mapped loopback in hex", "::ffff:7f00:1"],
    ["IPv4-compatible loopback", "::127.0.0.1"],
    ["IPv4-compatible loopback in hex", "::7f00:1"],
    ["IPv4-compatible private", "::a00:1"],
    ["NAT64 of loopback", "64:ff9b::7f00:1"],
    ["NAT64 of private", "64:ff9b::10.0.0.1"],
    ["NAT64 of link-local", "64:ff9b::a9fe:a9fe"],
    ["RFC 6145 IPv4-translated loopback", "::ffff:0:127.0.0.1"],
    ["RFC 6145 IPv4-translated private", "::ffff:0:a00:1"],
    ["6to4 of loopback", "2002:7f00:1::1"],
    ["6to4 of private 10/8", "2002:a00:1::"],
    ["6to4 of private 192.168/16", "2002:c0a8:101:1::1"],
    ["6to4 of link-local", "2002:a9fe:a9fe::"],
    ["local-use NAT64 /96 of loopback", "64:ff9b:1::7f00:1"],
    ["local-use NAT64 /96 of private", "64:ff9b:1::10.0.0.1"],
    ["local-use NAT64 /48 of private (10.0.0.1)", "64:ff9b:1:a00:1::"],
    ["local-use NAT64 /56 of loopback (127.0.0.1)", "64:ff9b:1:7f:0:1::"],
    ["local-use NAT64 /64 of private (192.168.1.1)", "64:ff9b:1:0:c0:a801:100::"],
    ["Teredo", "2001::1"],
    ["Teredo carrying a public server and client", "2001:0:5db8:d822::a2c1:29fe"],
    ["documentation", "2001:db8::1"],
    ["site-local (deprecated)", "fec0::1"],
    ["discard-only", "100::1"],
    ["not an address", "shop.example"],
  ])("refuses %s %s", (_label, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ["IPv4", "93.184.216.34"],
    ["IPv4 just past 172.16/12", "172.32.0.1"],
    ["IPv6", "2606:4700::1111"],
    ["IPv4-mapped public", "::ffff:93.184.216.34"],
    ["NAT64 of public", "64:ff9b::5db8:d822"],
    ["RFC 6145 IPv4-translated public", "::ffff:0:5db8:d822"],
    ["6to4 of public", "2002:5db8:d822::1"],
    ["local-use NAT64 of public at every prefix length", "64:ff9b:1:5db8:d8:225d:b8d8:225d"],
  ])("allows a public %s %s", (_label, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe("assertPublicLiteral", () => {
  it.each([
    "http://127.1/hook",
    "http://2130706433/hook",
    "http://0x7f000001/hook",
    "http://[::127.0.0.1]/hook",
    "http://[64:ff9b::10.0.0.1]:8080/hook",
    "https://[::ffff:169.254.169.254]/latest/meta-data",
    "http://[2002:a9fe:a9fe::]/latest/meta-data",
    "http://[64:ff9b:1::a9fe:a9fe]/hook",
    "http://[::ffff:0:a9fe:a9fe]/hook",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",
  ])("refuses %s, however the address is spelled", (url) => {
    expect(() => assertPublicLiteral(new URL(url))).toThrow(RefusedDestinationError);
  });

  it.each(["https://93.184.216.34/hook", "https://[2606:4700::1111]/hook", "https://shop.example/hook"])(
    "lets %s through (a name is checked when it is resolved)",
    (url) => {
      expect(() => assertPublicLiteral(new URL(url))).not.toThrow();
    },
  );
});

/** guardedLookup as a promise: the address (or addresses) it hands the socket. */
function lookup(hostname: string, options: object = {}) {
  return new Promise<string | LookupAddress[]>((resolve, reject) =>
    guardedLookup(hostname, options, (error, address) => (error ? reject(error) : resolve(address))),
  );
}

describe("guardedLookup", () => {
  it("refuses a name that resolves to loopback, without saying to which address", async () => {
    await expect(lookup("localhost")).rejects.toThrow(RefusedDestinationError);
    for (const options of [{}, { all: true }])
      await expect(lookup("localhost", options)).rejects.toThrow(
        new RefusedDestinationError("the address of localhost is not public"),
      );
  });

  it.each(["127.0.0.1", "::7f00:1", "64:ff9b::7f00:1", "64:ff9b:1::7f00:1", "2002:7f00:1::1", "::ffff:0:7f00:1", "2001::1"])(
    "refuses %s",
    async (address) => {
      await expect(lookup(address)).rejects.toThrow(RefusedDestinationError);
    },
  );

  it("hands a public address to the socket, singly or as a list", async () => {
    await expect(lookup("93.184.216.34")).resolves.toBe("93.184.216.34");
    await expect(lookup("2606:4700::1111", { all: true })).resolves.toEqual([{ address: "2606:4700::1111", family: 6 }]);
  });
});
