import { describe, expect, it } from "vitest";

import { isPublicAddress } from "./address";

describe("isPublicAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback /8"],
    ["10.0.0.1", "private 10/8"],
    ["10.255.255.255", "private 10/8 end"],
    ["172.16.0.1", "private 172.16/12"],
    ["172.31.255.255", "private 172.16/12 end"],
    ["192.168.1.1", "private 192.168/16"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.0.1", "link-local"],
    ["100.64.0.1", "CGNAT"],
    ["100.127.255.255", "CGNAT end"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "this network"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast SSDP"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking end"],
    ["192.0.2.1", "TEST-NET-1"],
    ["198.51.100.1", "TEST-NET-2"],
    ["203.0.113.1", "TEST-NET-3"],
    ["192.0.0.8", "IETF protocol assignments"],
    ["192.88.99.1", "6to4 relay anycast"],
    ["::", "IPv6 unspecified"],
    ["::1", "IPv6 loopback"],
    ["[::1]", "IPv6 loopback in brackets"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["[::ffff:127.0.0.1]", "IPv4-mapped loopback in brackets"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["::8.8.8.8", "IPv4-compatible (deprecated) even when public"],
    ["64:ff9b::7f00:1", "NAT64 of loopback"],
    ["64:ff9b::10.0.0.1", "NAT64 of private"],
    ["64:ff9b:1::8.8.8.8", "local-use NAT64"],
    ["2002:7f00:1::1", "6to4 of loopback"],
    ["2002:a00:1::", "6to4 of private"],
    ["fd00::1", "unique local fd00::/8"],
    ["fc00::1", "unique local fc00::/7"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with zone"],
    ["febf::1", "link-local end"],
    ["fec0::1", "site-local (deprecated)"],
    ["ff02::1", "multicast"],
    ["ff05::1:3", "multicast site"],
    ["100::1", "discard-only"],
    ["2001:db8::1", "documentation"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["2001:2::1", "benchmarking"],
    ["2001:10::1", "ORCHID"],
    ["3fff::1", "documentation 3fff::/20"],
    ["5f00::1", "SRv6, outside global unicast"],
    ["4000::1", "unallocated"],
  ])("refuses %s (%s)", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "9.255.255.255",
    "11.0.0.0",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "169.253.255.255",
    "192.167.255.255",
    "192.169.0.0",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "[2606:4700:4700::1111]",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
    "2a00:1450:4001:80b::200e",
  ])("allows %s", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each(["localhost", "example.com", "", "2130706433", "0x7f000001", "0177.0.0.1", "127.1", "1.2.3.4.5", "::g"])(
    "treats %j, which is not an IP address, as not public",
    (text) => {
      expect(isPublicAddress(text)).toBe(false);
    },
  );

  it.each([
    ["https://2130706433/", "127.0.0.1"],
    ["https://0x7f000001/", "127.0.0.1"],
    ["https://0177.0.0.1/", "127.0.0.1"],
    ["https://127.1/", "127.0.0.1"],
    ["https://0x7f.1/", "127.0.0.1"],
    ["https://0/", "0.0.0.0"],
    ["https://3232235777/", "192.168.1.1"],
    ["https://0xa9fea9fe/", "169.254.169.254"],
    ["https://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]"],
    ["https://[0:0:0:0:0:0:0:1]/", "[::1]"],
  ])("URL parsing turns %s into %s, which is refused", (url, host) => {
    const { hostname } = new URL(url);
    expect(hostname).toBe(host);
    expect(isPublicAddress(hostname)).toBe(false);
  });
});
