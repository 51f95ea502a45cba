import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import ApiReferencePage from "./page";

beforeAll(() => {
  vi.stubEnv("DATABASE_URL", "postgresql://test@127.0.0.1:5432/test");
  vi.stubEnv("AUTH_SECRET", "x".repeat(32));
  vi.stubEnv("APP_ENCRYPTION_KEY", "ab".repeat(32));
  vi.stubEnv("APP_URL", "https://app.example");
  vi.stubEnv("API_URL", "https://api.example");
  resetEnvForTests();
});
afterAll(() => {
  vi.unstubAllEnvs();
  resetEnvForTests();
});

describe("/docs/api", () => {
  it("renders the generated document: operations with scope, auth URLs, error codes and schemas", () => {
    const html = renderToStaticMarkup(createElement(ApiReferencePage));
    expect(html).toContain("/api/v1/me");
    expect(html).toContain("any valid token");
    expect(html).toContain("https://app.example/oauth/authorize");
    expect(html).toContain("https://api.example/oauth/token");
    expect(html).toContain('id="schema-Me"');
    expect(html).toContain("webhook:manage");
    expect(html).toContain(">invalid_token</a>");
  });
});
