import { describe, expect, it } from "vitest";
import { storageUnavailable } from "./s3";

describe("storageUnavailable", () => {
  it.each([
    ["the deadline passed", new Error("aborted"), true],
    ["a connection refused", Object.assign(new Error("connect"), { code: "ECONNREFUSED" }), false],
    ["a TimeoutError", Object.assign(new Error("t"), { name: "TimeoutError" }), false],
    ["S3 answered 503", Object.assign(new Error("SlowDown"), { $metadata: { httpStatusCode: 503 } }), false],
  ])("is 503 service_unavailable with Retry-After when %s", (_, error, timedOut) => {
    const mapped = storageUnavailable(error, timedOut);
    expect([mapped?.code, mapped?.status, mapped?.headers["Retry-After"]]).toEqual(["service_unavailable", 503, "30"]);
  });

  it("leaves other storage errors alone (they stay 500s, logged)", () => {
    expect(storageUnavailable(Object.assign(new Error("AccessDenied"), { $metadata: { httpStatusCode: 403 } }), false)).toBeNull();
    expect(storageUnavailable("weird", false)).toBeNull();
  });
});
