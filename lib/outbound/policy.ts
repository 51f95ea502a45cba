import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";

import { env } from "@/lib/env";

import { isPublicAddress } from "./address";
import { OutboundError } from "./errors";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * What outbound requests may reach. Production takes it from the environment
 * (outboundPolicyFromEnv); tests pass their own so they can isolate one rule at a time, e.g. plain
 * http allowed but private addresses still refused, against a real loopback server.
 */
export interface OutboundPolicy {
  /** Loopback and private addresses may be connected to (D19: development and tests only). */
  allowPrivate: boolean;
  /** Plain `http:` URLs are accepted, not only `https:`. */
  allowHttp: boolean;
  /** Every address of a host name; dns.lookup by default. Tests inject names to simulate DNS. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /**
   * `address:port` endpoints (`127.0.0.1:4321`, `[::1]:4321`) that count as public although their
   * address is not. Only for tests: a loopback server stands in for a public host, so a redirect
   * from it to another loopback port shows the second hop refused.
   */
  publicEndpoints?: readonly string[];
}

/** OUTBOUND_ALLOW_PRIVATE opens both loopback/private addresses and plain http (D19). */
export function outboundPolicyFromEnv(): OutboundPolicy {
  const open = env().OUTBOUND_ALLOW_PRIVATE;
  return { allowPrivate: open, allowHttp: open };
}

function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  return dnsLookup(hostname, { all: true });
}

export function isAllowedAddress(policy: OutboundPolicy, address: string, port: number): boolean {
  if (policy.allowPrivate || isPublicAddress(address)) return true;
  const endpoint = isIP(address) === 6 ? `[${address}]:${port}` : `${address}:${port}`;
  return policy.publicEndpoints?.includes(endpoint) ?? false;
}

/**
 * Resolves a host name and refuses it when any of its addresses may not be reached: a name that
 * mixes public and internal addresses is not a receiver anyone should configure, and refusing it
 * whole keeps the creation-time check (checkOutboundUrl) and the connect-time check the same rule.
 */
export async function resolveAllowed(policy: OutboundPolicy, hostname: string, port: number): Promise<ResolvedAddress[]> {
  let addresses: ResolvedAddress[];
  try {
    addresses = await (policy.resolve ?? systemResolve)(hostname);
  } catch (e) {
    throw new OutboundError("dns_failed", `could not resolve ${hostname}`, { cause: e });
  }
  if (addresses.length === 0) throw new OutboundError("dns_failed", `${hostname} has no address`);
  if (addresses.some((a) => !isAllowedAddress(policy, a.address, port))) {
    throw new OutboundError("private_address", `${hostname} resolves to a non-public address`);
  }
  return addresses;
}
