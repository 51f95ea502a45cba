import { describe, expect, it } from "vitest";
import { DEFAULT_DEV_SERVER_URL, inngestSettings } from "@/inngest/config";

const base = {
  NODE_ENV: "development" as const,
  INNGEST_EVENT_KEY: undefined,
  INNGEST_SIGNING_KEY: undefined,
  INNGEST_BASE_URL: undefined,
  INNGEST_DEV: undefined,
};

describe("inngestSettings", () => {
  it("uses the local Dev Server in development without an event key", () => {
    expect(inngestSettings(base)).toEqual({
      isDev: true,
      baseUrl: DEFAULT_DEV_SERVER_URL,
      eventKey: undefined,
      signingKey: undefined,
    });
    expect(inngestSettings({ ...base, NODE_ENV: "test" }).isDev).toBe(true);
  });

  it("uses Inngest Cloud in production, and in development once an event key is set", () => {
    const prod = inngestSettings({ ...base, NODE_ENV: "production", INNGEST_SIGNING_KEY: "signkey-prod-1" });
    expect(prod).toEqual({ isDev: false, baseUrl: undefined, eventKey: undefined, signingKey: "signkey-prod-1" });
    const keyed = inngestSettings({ ...base, INNGEST_EVENT_KEY: "ek" });
    expect(keyed).toMatchObject({ isDev: false, baseUrl: undefined, eventKey: "ek" });
  });

  it("lets INNGEST_DEV force either mode", () => {
    expect(inngestSettings({ ...base, NODE_ENV: "production", INNGEST_DEV: "1" })).toMatchObject({
      isDev: true,
      baseUrl: DEFAULT_DEV_SERVER_URL,
    });
    expect(inngestSettings({ ...base, INNGEST_DEV: "false" })).toMatchObject({ isDev: false, baseUrl: undefined });
  });

  it("takes the Dev Server's address from INNGEST_DEV when it is a URL", () => {
    expect(inngestSettings({ ...base, NODE_ENV: "production", INNGEST_DEV: "http://inngest:8288" })).toMatchObject({
      isDev: true,
      baseUrl: "http://inngest:8288",
    });
  });

  it("prefers INNGEST_BASE_URL in either mode", () => {
    expect(inngestSettings({ ...base, INNGEST_BASE_URL: "http://127.0.0.1:9999" }).baseUrl).toBe("http://127.0.0.1:9999");
    expect(inngestSettings({ ...base, NODE_ENV: "production", INNGEST_BASE_URL: "https://inngest.internal" }).baseUrl).toBe("https://inngest.internal");
  });
});
