import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { linkHeader } from "@/lib/api/pagination";
import { afterCursor, decodeCursor, encodeCursor, pageQuery, splitPage } from "@/lib/pagination";

const ID_A = "0b6a7c1e-2f3d-4a5b-8c6d-7e8f9a0b1c2d";
const ID_B = "1c7b8d2f-3a4e-4b6c-9d7e-8f9a0b1c2d3e";

beforeAll(() => {
  vi.stubEnv("DATABASE_URL", "postgresql://test@127.0.0.1:5432/test");
  vi.stubEnv("AUTH_SECRET", "x".repeat(32));
  vi.stubEnv("APP_ENCRYPTION_KEY", "ab".repeat(32));
  vi.stubEnv("APP_URL", "https://app.example");
  vi.stubEnv("API_URL", "https://api.example/");
  resetEnvForTests();
});
afterAll(() => {
  vi.unstubAllEnvs();
  resetEnvForTests();
});

describe("cursor", () => {
  it("round-trips createdAt and id", () => {
    const cursor = { createdAt: new Date("2025-03-04T05:06:07.089Z"), id: ID_A };
    const encoded = encodeCursor(cursor);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(encoded)).toEqual(cursor);
  });

  it.each([
    ["not base64 json", "%%%"],
    ["wrong shape", Buffer.from(JSON.stringify({ a: 1 })).toString("base64url")],
    ["bad date", Buffer.from(JSON.stringify(["yesterday", ID_A])).toString("base64url")],
    ["bad id", Buffer.from(JSON.stringify(["2025-03-04T05:06:07.089Z", "x"])).toString("base64url")],
  ])("rejects %s", (_, value) => {
    expect(decodeCursor(value)).toBeNull();
  });

  it("is a 400-able query issue naming `cursor` when invalid", () => {
    const result = pageQuery.safeParse({ cursor: "nonsense" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["cursor"]);
  });

  it("builds the where fragment after the cursor", () => {
    const createdAt = new Date("2025-01-01T00:00:00.000Z");
    expect(afterCursor(undefined)).toEqual({});
    expect(afterCursor({ createdAt, id: ID_A })).toEqual({
      OR: [{ createdAt: { gt: createdAt } }, { createdAt, id: { gt: ID_A } }],
    });
  });
});

describe("pageQuery", () => {
  it("defaults limit to 1000 and coerces it", () => {
    expect(pageQuery.parse({})).toEqual({ limit: 1000 });
    expect(pageQuery.parse({ limit: "5" })).toEqual({ limit: 5 });
  });

  it.each(["0", "1001", "2.5", "x"])("refuses limit=%s", (limit) => {
    expect(pageQuery.safeParse({ limit }).success).toBe(false);
  });
});

describe("splitPage and linkHeader", () => {
  const rows = [
    { createdAt: new Date("2025-01-01T00:00:00.000Z"), id: ID_A, name: "a" },
    { createdAt: new Date("2025-01-02T00:00:00.000Z"), id: ID_B, name: "b" },
  ];

  it("returns the page and no Link on the last page", () => {
    const { items, next } = splitPage(rows, 2);
    expect(items).toEqual(rows);
    expect(next).toBeNull();
    expect(linkHeader(new URL("https://any.example/api/v1/portals"), next)).toEqual({});
  });

  it("cuts the extra row and links the next page on API_URL, keeping other parameters", () => {
    const url = new URL("http://internal:3000/api/v1/portals?limit=1&templatesOnly=true&cursor=old");
    const { items, next: cursor } = splitPage(rows, 1);
    const headers = linkHeader(url, cursor);
    expect(items).toEqual([rows[0]]);
    const match = /^<(.+)>; rel="next"$/.exec(headers["Link"] ?? "");
    expect(match).not.toBeNull();
    const next = new URL(match?.[1] ?? "");
    expect(next.origin + next.pathname).toBe("https://api.example/api/v1/portals");
    expect(next.searchParams.get("limit")).toBe("1");
    expect(next.searchParams.get("templatesOnly")).toBe("true");
    expect(decodeCursor(next.searchParams.get("cursor") ?? "")).toEqual({ createdAt: rows[0]?.createdAt, id: ID_A });
  });
});
