import { afterEach, describe, expect, it, vi } from "vitest";

import { resetEnvForTests } from "@/lib/env";

import { checkOutboundUrl } from "./check-url";
import { OutboundError, type OutboundFailure } from "./errors";
import { outboundPolicyFromEnv, type OutboundPolicy, type ResolvedAddress } from "./policy";

// Names resolved by the test, never by DNS.
const names: Record<string, ResolvedAddress[]> = {
  "public.test": [{ address: "93.184.215.14", family: 4 }],
  "public6.test": [{ address: "2606:4700:4700::1111", family: 6 }],
  "mixed.test": [
    { address: "93.184.215.14", family: 4 },
    { address: "10.0.0.7", family: 4 },
  ],
  "metadata.test": [{ address: "169.254.169.254", family: 4 }],
  "mapped.test": [{ address: "::ffff:127.0.0.1", family: 6 }],
  "empty.test": [],
};

async function resolve(hostname: string): Promise<ResolvedAddress[]> {
  const found = names[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return found;
}

const strict: OutboundPolicy = { allowPrivate: false, allowHttp: false, resolve };

async function reasonOf(promise: Promise<unknown>): Promise<OutboundFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof OutboundError)) throw new Error(`expected an OutboundError, got ${String(error)}`);
  return error.reason;
}

describe("checkOutboundUrl", () => {
  it("accepts an https URL whose host resolves only to public addresses", async () => {
    const url = await checkOutboundUrl("https://public.test:8443/hooks?x=1", strict);
    expect(url.href).toBe("https://public.test:8443/hooks?x=1");
    await expect(checkOutboundUrl("https://public6.test/", strict)).resolves.toBeInstanceOf(URL);
    await expect(checkOutboundUrl("https://8.8.8.8/", strict)).resolves.toBeInstanceOf(URL);
    await expect(checkOutboundUrl("https://[2606:4700:4700::1111]/", strict)).resolves.toBeInstanceOf(URL);
  });

  it.each(["not a url", "/relative/path", "https://", "https://user:pass@public.test/", "https://user@public.test/"])(
    "refuses %j as invalid_url",
    async (url) => {
      expect(await reasonOf(checkOutboundUrl(url, strict))).toBe("invalid_url");
    },
  );

  it.each(["http://public.test/", "ftp://public.test/", "file:///etc/passwd", "gopher://public.test/", "data:text/plain,x"])(
    "refuses %s as scheme_not_allowed",
    async (url) => {
      expect(await reasonOf(checkOutboundUrl(url, strict))).toBe("scheme_not_allowed");
    },
  );

  it.each([
    "https://127.0.0.1/",
    "https://2130706433/",
    "https://0x7f000001/",
    "https://0177.0.0.1/",
    "https://127.1/",
    "https://[::1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://10.1.2.3/",
    "https://172.16.5.4/",
    "https://192.168.0.10/",
    "https://169.254.169.254/latest/meta-data/",
    "https://100.64.0.1/",
    "https://0.0.0.0/",
    "https://[fd00::1]/",
    "https://[fe80::1]/",
    "https://224.0.0.1/",
    "https://255.255.255.255/",
    "https://metadata.test/",
    "https://mapped.test/",
    "https://mixed.test/",
  ])("refuses %s as private_address", async (url) => {
    expect(await reasonOf(checkOutboundUrl(url, strict))).toBe("private_address");
  });

  it("refuses localhost, which the system resolver answers with loopback", async () => {
    const system: OutboundPolicy = { allowPrivate: false, allowHttp: true };
    expect(await reasonOf(checkOutboundUrl("https://localhost/", system))).toBe("private_address");
    expect(await reasonOf(checkOutboundUrl("http://localhost:3000/", system))).toBe("private_address");
  });

  it("gives dns_failed for a name that does not resolve or has no address", async () => {
    expect(await reasonOf(checkOutboundUrl("https://nowhere.test/", strict))).toBe("dns_failed");
    expect(await reasonOf(checkOutboundUrl("https://empty.test/", strict))).toBe("dns_failed");
  });

  it("lets loopback and http through when the policy allows private addresses", async () => {
    const open: OutboundPolicy = { allowPrivate: true, allowHttp: true, resolve };
    await expect(checkOutboundUrl("http://127.0.0.1:3000/", open)).resolves.toBeInstanceOf(URL);
    await expect(checkOutboundUrl("https://metadata.test/", open)).resolves.toBeInstanceOf(URL);
    // Still not other schemes, nor credentials.
    expect(await reasonOf(checkOutboundUrl("ftp://127.0.0.1/", open))).toBe("scheme_not_allowed");
    expect(await reasonOf(checkOutboundUrl("http://a:b@127.0.0.1/", open))).toBe("invalid_url");
  });
});

describe("outboundPolicyFromEnv", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it.each([
    [undefined, false],
    ["false", false],
    ["true", true],
  ])("OUTBOUND_ALLOW_PRIVATE=%s opens private addresses and http: %s", (value, open) => {
    vi.stubEnv("DATABASE_URL", "postgresql://localhost/test");
    vi.stubEnv("AUTH_SECRET", "x".repeat(32));
    vi.stubEnv("APP_ENCRYPTION_KEY", "a".repeat(64));
    vi.stubEnv("OUTBOUND_ALLOW_PRIVATE", value);
    resetEnvForTests();
    expect(outboundPolicyFromEnv()).toEqual({ allowPrivate: open, allowHttp: open });
  });
});
