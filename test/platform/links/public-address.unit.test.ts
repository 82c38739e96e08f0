import { describe, expect, test } from "vitest";
import { isPublicAddress } from "../../../src/platform/links/public-address";

/**
 * The IPv6 forms an address a user's link resolves to can take, and whether
 * the bot may connect to each: an IPv4 address carried inside IPv6 is judged
 * as that IPv4 address, wherever the packets really go to it.
 */
describe("IPv6 forms of public and non-public addresses", () => {
  test.each([
    // [form, address, public?]
    ["global unicast", "2606:4700:4700::1111", true],
    ["global unicast, full form", "2a00:1450:4001:081c:0000:0000:0000:200e", true],
    ["mapped, public", "::ffff:8.8.8.8", true],
    ["mapped, loopback", "::ffff:127.0.0.1", false],
    ["mapped, private, hex", "::ffff:a00:1", false],
    ["mapped, metadata", "::ffff:169.254.169.254", false],
    ["compatible, public", "::8.8.8.8", true],
    ["compatible, private", "::10.0.0.1", false],
    ["compatible, loopback in hex", "::7f00:1", false],
    ["SIIT, public", "::ffff:0:8.8.8.8", true],
    ["SIIT, loopback", "::ffff:0:127.0.0.1", false],
    ["SIIT, private in hex", "::ffff:0:c0a8:101", false],
    ["NAT64 well-known, public", "64:ff9b::8.8.8.8", true],
    ["NAT64 well-known, private", "64:ff9b::10.0.0.1", false],
    ["NAT64 well-known, loopback in hex", "64:ff9b::7f00:1", false],
    ["NAT64 local-use", "64:ff9b:1::8.8.8.8", false],
    ["NAT64 local-use, other address", "64:ff9b:1:abcd::1", false],
    ["6to4, public", "2002:808:808::1", true],
    ["6to4, private", "2002:c0a8:101::1", false],
    ["6to4, loopback", "2002:7f00:1::1", false],
    ["Teredo", "2001:0:4136:e378::1", false],
    ["documentation", "2001:db8::1", false],
    ["link-local", "fe80::1", false],
    ["link-local with a zone", "fe80::1%eth0", false],
    ["link-local, upper end", "febf:ffff::1", false],
    ["unique-local fc", "fc00::1", false],
    ["unique-local fd", "fd12:3456:789a::1", false],
    ["multicast, all nodes", "ff02::1", false],
    ["multicast, global scope", "ff0e::101", false],
    ["loopback", "::1", false],
    ["loopback, bracketed", "[::1]", false],
    ["loopback, full form", "0:0:0:0:0:0:0:1", false],
    ["unspecified", "::", false],
    ["not an address", "::g", false],
    ["too many groups", "1:2:3:4:5:6:7:8:9", false],
  ] as const)("%s (%s) is public: %s", (_form, address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
