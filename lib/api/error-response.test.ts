import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { formatZodError, mapError } from "./error-response";

describe("mapError", () => {
  it("maps an AppError to its code, status, description and headers", () => {
    const mapped = mapError(new AppError("insufficient_scope", "needs portal:read", { "WWW-Authenticate": "Bearer x" }));
    expect(mapped).toEqual({
      status: 403,
      body: { error: "insufficient_scope", error_description: "needs portal:read" },
      headers: { "WWW-Authenticate": "Bearer x" },
      unexpected: false,
    });
  });

  it("maps a ZodError to 400 invalid_request naming the field", () => {
    const result = z.object({ name: z.string() }).safeParse({ name: 3 });
    const mapped = mapError(result.error);
    expect(mapped.status).toBe(400);
    expect(mapped.body).toEqual({ error: "invalid_request", error_description: "name: Expected string, received number" });
  });

  it("hides anything else behind a generic 500", () => {
    const mapped = mapError(new Error("connect ECONNREFUSED 10.0.0.5:5432 password=secret"));
    expect(mapped.status).toBe(500);
    expect(mapped.unexpected).toBe(true);
    expect(mapped.body.error).toBe("server_error");
    expect(JSON.stringify(mapped.body)).not.toMatch(/ECONNREFUSED|secret|5432/);
  });

  it("treats an AppError of status 500 as unexpected too (its detail stays in the logs)", () => {
    const mapped = mapError(new AppError("server_error", 'relation "Portal" does not exist'));
    expect(mapped.unexpected).toBe(true);
    expect(mapped.body.error_description).not.toContain("Portal");
  });
});

describe("formatZodError", () => {
  const schema = z.object({ name: z.string(), tags: z.array(z.string()).optional(), due: z.iso.datetime().optional() });

  it("says Required for a missing field", () => {
    expect(formatZodError(schema.safeParse({}).error ?? new z.ZodError([]))).toBe("name: Required");
  });

  it("names nested paths with dots", () => {
    expect(formatZodError(schema.safeParse({ name: "x", tags: ["a", 2] }).error ?? new z.ZodError([]))).toBe("tags.1: Expected string, received number");
  });

  it("names the root when the body is not an object", () => {
    expect(formatZodError(schema.safeParse([1]).error ?? new z.ZodError([]), "Request body")).toBe("Request body: Expected object, received array");
  });

  it("lists at most three issues", () => {
    const many = z.object({ a: z.string(), b: z.string(), c: z.string(), d: z.string(), e: z.string() });
    const text = formatZodError(many.safeParse({}).error ?? new z.ZodError([]));
    expect(text).toBe("a: Required; b: Required; c: Required (and 2 more)");
  });
});

describe("mapError: 503 service_unavailable", () => {
  it("is sent as it is, with its Retry-After, not turned into a 500", () => {
    const mapped = mapError(new AppError("service_unavailable", "The file storage did not answer in time; retry later", { "Retry-After": "30" }));
    expect(mapped).toEqual({
      status: 503,
      body: { error: "service_unavailable", error_description: "The file storage did not answer in time; retry later" },
      headers: { "Retry-After": "30" },
      unexpected: false,
    });
  });
});

describe("mapError: the database unreachable", () => {
  it("is a 503 service_unavailable with Retry-After, not a 500, and not logged as a bug", () => {
    const error = Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), { code: "P1001" });
    expect(mapError(error)).toEqual({
      status: 503,
      body: { error: "service_unavailable", error_description: expect.stringContaining("retry") },
      headers: { "Retry-After": "5" },
      unexpected: false,
    });
  });
});

describe("mapError: a transaction that lost to concurrent changes on every attempt", () => {
  it("is a 503 service_unavailable with a short Retry-After, not a 500, and not logged as a bug", () => {
    const error = Object.assign(new Error("Transaction failed due to a write conflict or a deadlock"), {
      code: "P2034",
      meta: { driverAdapterError: { cause: { kind: "TransactionWriteConflict", originalCode: "40P01" } } },
    });
    expect(mapError(error)).toEqual({
      status: 503,
      body: { error: "service_unavailable", error_description: expect.stringContaining("concurrent changes") },
      headers: { "Retry-After": "1" },
      unexpected: false,
    });
  });
});
