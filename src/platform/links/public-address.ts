import { BlockList, isIPv4, isIPv6 } from "node:net";

/**
 * Whether an IP address belongs to the public internet: what a link given by a
 * user may make the bot connect to. Private, loopback, link-local, unique-local,
 * CGNAT, multicast, documentation and reserved ranges are refused, in IPv4 and
 * IPv6, including IPv4 addresses carried inside IPv6 (mapped, compatible,
 * SIIT, NAT64, 6to4); the local-use NAT64 prefix is refused whole.
 */
export type AddressPolicy = (address: string) => boolean;

const refusedV4 = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local (and cloud metadata)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
] as const) {
  refusedV4.addSubnet(net, prefix, "ipv4");
}

const refusedV6 = new BlockList();
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128],
  ["64:ff9b:1::", 48], // local-use NAT64: translated inside someone's own network
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["2001::", 23], // IETF protocol assignments (Teredo and others)
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  refusedV6.addSubnet(net, prefix, "ipv6");
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included). */
function groupsOf(address: string): number[] | undefined {
  let text = address.toLowerCase().split("%")[0] ?? "";
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a, b, c, d] = dotted[1].split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const part = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...new Array<number>(Math.max(fill, 0)).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : undefined;
}

const v4From = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The IPv4 address an IPv6 one carries, where the packets really go to it. */
function embeddedV4(g: number[]): string | undefined {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated)
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return v4From(g[6]!, g[7]!);
  // ::ffff:0:a.b.c.d (SIIT, translated)
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4From(g[6]!, g[7]!);
  // 64:ff9b::a.b.c.d (NAT64)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4From(g[6]!, g[7]!);
  // 2002:aabb:ccdd::/48 (6to4)
  if (g[0] === 0x2002) return v4From(g[1]!, g[2]!);
  return undefined;
}

export const isPublicAddress: AddressPolicy = (address) => {
  const bare = address.replace(/^\[|\]$/g, "");
  if (isIPv4(bare)) return !refusedV4.check(bare, "ipv4");
  if (!isIPv6(bare)) return false;
  const groups = groupsOf(bare);
  if (!groups) return false;
  const v4 = embeddedV4(groups);
  if (v4 !== undefined) return !refusedV4.check(v4, "ipv4");
  return !refusedV6.check(bare.split("%")[0] ?? bare, "ipv6");
};
