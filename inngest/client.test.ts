import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";

// The client reads its configuration when used, not at import (see inngest/client.ts).

const savedEnv = { ...process.env };
// What env() requires besides Inngest's variables; nothing here connects to them.
const required = {
  DATABASE_URL: "postgresql://unused@127.0.0.1:1/unused",
  AUTH_SECRET: "unit-test-secret-unit-test-secret-0123",
  APP_ENCRYPTION_KEY: "0".repeat(64),
};

const savedFetch = globalThis.fetch;

afterEach(() => {
  globalThis.fetch = savedFetch;
  process.env = { ...savedEnv };
  resetEnvForTests();
  vi.resetModules();
});

describe("inngest client", () => {
  it("imports, with its functions and route, when nothing is configured", async () => {
    process.env = { NODE_ENV: "production" };
    resetEnvForTests();
    const { inngest, events } = await import("@/inngest/client");
    const { functions } = await import("@/inngest/functions");
    const route = await import("@/app/api/inngest/route");
    expect(inngest.id).toBe("client-portals");
    expect(Object.keys(events)).toContain("file.uploaded");
    expect(functions.length).toBeGreaterThan(0);
    expect(typeof route.PUT).toBe("function");
  });

  it("follows the environment at each use", async () => {
    // After resetModules, the client's lib/env is a fresh instance: reset that one.
    const { resetEnvForTests } = await import("@/lib/env");
    const { inngest } = await import("@/inngest/client");

    Object.assign(process.env, required);
    process.env.INNGEST_DEV = "0";
    process.env.INNGEST_EVENT_KEY = "ek-one";
    process.env.INNGEST_SIGNING_KEY = "signkey-test-0123";
    process.env.INNGEST_BASE_URL = "http://127.0.0.1:1111";
    resetEnvForTests();
    expect(inngest.mode).toBe("cloud");
    expect(inngest.eventKey).toBe("ek-one");
    expect(inngest.signingKey).toBe("signkey-test-0123");
    expect(inngest.eventBaseUrl).toBe("http://127.0.0.1:1111");

    process.env.INNGEST_DEV = "1";
    delete process.env.INNGEST_EVENT_KEY;
    delete process.env.INNGEST_BASE_URL;
    resetEnvForTests();
    expect(inngest.mode).toBe("dev");
    expect(inngest.eventBaseUrl).toBe("http://127.0.0.1:8288");
    expect(inngest.apiBaseUrl).toBe("http://127.0.0.1:8288");
  });

  it("sends events with the fetch a wrapping global fetch keeps as _nextOriginalFetch, not through the wrapper", async () => {
    const received: unknown[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        received.push(JSON.parse(body));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ids: ["e-1"], status: 200 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      // What Next.js does to the global fetch in the server: a wrapper that keeps the original.
      const wrapped: string[] = [];
      const wrapper = Object.assign(
        (input: RequestInfo | URL, init?: RequestInit) => {
          wrapped.push(String(input));
          return savedFetch(input, init);
        },
        { _nextOriginalFetch: savedFetch },
      );
      globalThis.fetch = wrapper as typeof fetch;

      const { resetEnvForTests } = await import("@/lib/env");
      const { inngest } = await import("@/inngest/client");
      Object.assign(process.env, required);
      process.env.INNGEST_DEV = "1";
      process.env.INNGEST_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resetEnvForTests();

      await expect(inngest.send({ id: "e-1", name: "portal.created", data: { portal_id: "p" } })).resolves.toEqual({ ids: ["e-1"] });
      expect(received).toEqual([[expect.objectContaining({ id: "e-1", name: "portal.created", data: { portal_id: "p" } })]]);
      expect(wrapped).toEqual([]);

      // Without a wrapper, the global fetch itself.
      globalThis.fetch = Object.assign((input: RequestInfo | URL, init?: RequestInit) => {
        wrapped.push(String(input));
        return savedFetch(input, init);
      });
      await inngest.send({ id: "e-2", name: "portal.created", data: { portal_id: "p" } });
      expect(wrapped).toHaveLength(1);
      expect(received).toHaveLength(2);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
