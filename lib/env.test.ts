import { describe, expect, it } from "vitest";
import { ConfigurationError, parseEnv } from "./env";

const base = {
  DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/app",
  AUTH_SECRET: "x".repeat(32),
  APP_ENCRYPTION_KEY: "00".repeat(32),
};

describe("parseEnv", () => {
  it("applies the defaults that make a fresh machine work", () => {
    const env = parseEnv(base);
    expect(env.APP_URL).toBe("http://localhost:3000");
    expect(env.API_URL).toBe("http://localhost:3000");
    expect(env.OUTBOUND_ALLOW_PRIVATE).toBe(false);
    expect(env.APP_ENCRYPTION_KEY.length).toBe(32);
    expect(env.WEBHOOK_RETRY_BASE_SECONDS).toBe(30);
    expect(env.DATABASE_POOL_SIZE).toBe(20);
  });

  it("keeps API_URL apart from APP_URL when given and trims trailing slashes", () => {
    const env = parseEnv({ ...base, APP_URL: "https://app.example.com/", API_URL: "https://api.example.com/" });
    expect(env.APP_URL).toBe("https://app.example.com");
    expect(env.API_URL).toBe("https://api.example.com");
  });

  it("names the variable that is missing", () => {
    const { DATABASE_URL: _omit, ...rest } = base;
    expect(() => parseEnv(rest)).toThrow(ConfigurationError);
    expect(() => parseEnv(rest)).toThrow(/DATABASE_URL is required/);
  });

  it("names the variable that is malformed", () => {
    expect(() => parseEnv({ ...base, APP_ENCRYPTION_KEY: "short" })).toThrow(/APP_ENCRYPTION_KEY must be 32 bytes/);
    expect(() => parseEnv({ ...base, SMTP_URL: "http://mail" })).toThrow(/SMTP_URL must be an smtp/);
    expect(() => parseEnv({ ...base, OUTBOUND_ALLOW_PRIVATE: "yes" })).toThrow(/OUTBOUND_ALLOW_PRIVATE/);
    expect(() => parseEnv({ ...base, DATABASE_POOL_SIZE: "1" })).toThrow(/DATABASE_POOL_SIZE must be at least 2/);
    expect(parseEnv({ ...base, DATABASE_POOL_SIZE: "8" }).DATABASE_POOL_SIZE).toBe(8);
  });

  it("takes a passkey RP id only when it is APP_URL's host or a parent domain of it", () => {
    expect(parseEnv({ ...base, APP_URL: "https://app.example.com", WEBAUTHN_RP_ID: "example.com" }).WEBAUTHN_RP_ID).toBe("example.com");
    expect(parseEnv({ ...base, APP_URL: "https://app.example.com", WEBAUTHN_RP_ID: "app.example.com" }).WEBAUTHN_RP_ID).toBe("app.example.com");
    expect(() => parseEnv({ ...base, APP_URL: "https://app.example.com", WEBAUTHN_RP_ID: "other.com" })).toThrow(/WEBAUTHN_RP_ID must be APP_URL's host/);
    expect(() => parseEnv({ ...base, APP_URL: "https://app.example.com", WEBAUTHN_RP_ID: "ample.com" })).toThrow(/WEBAUTHN_RP_ID/);
  });

  it("refuses production without Inngest's event and signing keys, naming both, unless INNGEST_DEV says otherwise", () => {
    const prod = { ...base, NODE_ENV: "production" };
    expect(() => parseEnv(prod)).toThrow(/INNGEST_EVENT_KEY is required in production.*INNGEST_SIGNING_KEY is required in production/);
    expect(() => parseEnv({ ...prod, INNGEST_EVENT_KEY: "ek" })).toThrow(/INNGEST_SIGNING_KEY is required/);
    expect(parseEnv({ ...prod, INNGEST_EVENT_KEY: "ek", INNGEST_SIGNING_KEY: "signkey-prod-00" }).INNGEST_SIGNING_KEY).toBe("signkey-prod-00");
    expect(parseEnv({ ...prod, INNGEST_DEV: "1" }).NODE_ENV).toBe("production");
    expect(parseEnv(base).INNGEST_EVENT_KEY).toBeUndefined();
  });

  it("reads boolean flags", () => {
    expect(parseEnv({ ...base, OUTBOUND_ALLOW_PRIVATE: "true" }).OUTBOUND_ALLOW_PRIVATE).toBe(true);
    expect(parseEnv({ ...base, S3_FORCE_PATH_STYLE: "1" }).S3_FORCE_PATH_STYLE).toBe(true);
  });
});
