import { isIP } from "node:net";

// Which IP addresses an outbound request may connect to (D24). Pure: no DNS, no I/O.
// IPv4 is refused by listing the special-purpose ranges (the rest of the space is allocated
// unicast). IPv6 is allowed only inside global unicast 2000::/3, minus its special ranges, so
// anything unlisted or newly reserved outside it fails closed. Addresses that carry an IPv4
// address the packet would actually reach (IPv4-mapped, NAT64, 6to4) are judged by that address.

type Range = readonly [address: string, prefixBits: number];

const IPV4_NOT_PUBLIC: readonly Range[] = [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // CGNAT shared address space
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, incl. cloud metadata 169.254.169.254
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // deprecated 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, incl. broadcast 255.255.255.255
];

/** Special ranges inside 2000::/3; everything outside 2000::/3 is refused anyway. */
const IPV6_NOT_PUBLIC: readonly Range[] = [
  // IETF protocol assignments: Teredo 2001::/32 (a tunnel to an obfuscated IPv4 address),
  // benchmarking 2001:2::/48, ORCHID; none is a receiver anyone configures.
  ["2001::", 23],
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation (RFC 9637)
];

function ipv4Bytes(ip: string): number[] {
  return ip.split(".").map(Number);
}

/** 16 bytes of an address that net.isIP has already accepted as IPv6 (zone id removed). */
function ipv6Bytes(ip: string): number[] {
  let text = ip;
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    // Dotted IPv4 tail (::ffff:1.2.3.4): rewrite as two hex groups.
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Bytes(tail);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", rest] = text.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const restGroups = rest === undefined || rest === "" ? [] : rest.split(":");
  const zeros = Array<string>(8 - headGroups.length - restGroups.length).fill("0");
  const groups = rest === undefined ? headGroups : [...headGroups, ...zeros, ...restGroups];
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

function inRange(bytes: readonly number[], range: readonly number[], prefixBits: number): boolean {
  for (let bit = 0; bit < prefixBits; bit += 8) {
    const take = Math.min(8, prefixBits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    const i = bit / 8;
    if (((bytes[i] ?? 0) & mask) !== ((range[i] ?? 0) & mask)) return false;
  }
  return true;
}

const v4Ranges = IPV4_NOT_PUBLIC.map(([a, bits]) => [ipv4Bytes(a), bits] as const);
const v6Ranges = IPV6_NOT_PUBLIC.map(([a, bits]) => [ipv6Bytes(a), bits] as const);
const MAPPED = ipv6Bytes("::ffff:0:0");
const NAT64 = ipv6Bytes("64:ff9b::");
const SIX_TO_FOUR = ipv6Bytes("2002::");
const GLOBAL_UNICAST = ipv6Bytes("2000::");

function isPublicIpv4(bytes: readonly number[]): boolean {
  return !v4Ranges.some(([range, bits]) => inRange(bytes, range, bits));
}

function isPublicIpv6(bytes: readonly number[]): boolean {
  if (inRange(bytes, MAPPED, 96) || inRange(bytes, NAT64, 96)) return isPublicIpv4(bytes.slice(12));
  if (inRange(bytes, SIX_TO_FOUR, 16)) return isPublicIpv4(bytes.slice(2, 6));
  // Refuses ::, ::1, IPv4-compatible ::/96, local NAT64 64:ff9b:1::/48, discard 100::/64,
  // unique local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8.
  if (!inRange(bytes, GLOBAL_UNICAST, 3)) return false;
  return !v6Ranges.some(([range, bits]) => inRange(bytes, range, bits));
}

/**
 * Whether an outbound request may connect to this IP address. Accepts IPv4 dotted quads and IPv6
 * (optionally in brackets or with a zone id); anything else, including the decimal, hex and octal
 * IPv4 spellings that only URL parsing turns into addresses, is not an address and gives false.
 */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const address = bare.split("%")[0] ?? "";
  switch (isIP(address)) {
    case 4:
      return isPublicIpv4(ipv4Bytes(address));
    case 6:
      return isPublicIpv6(ipv6Bytes(address));
    default:
      return false;
  }
}
