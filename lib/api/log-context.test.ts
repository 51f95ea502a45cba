import { afterEach, describe, expect, it } from "vitest";
import { publicApiRoute } from "@/lib/api/route";
import { getOpenApiOperation } from "@/lib/api/openapi/definition";
import { captureLog, restoreLogger } from "@/lib/test-support/log-capture";
import { log, withLogContext, withoutLogContext } from "@/lib/log";

// The JSON lines the logger writes, and the request id on every line of an API request.

afterEach(restoreLogger);

describe("lib/log", () => {
  it("writes one JSON object per line with level, time and message", () => {
    const lines = captureLog();
    log().warn({ component: "test" }, "something happened");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "warn", msg: "something happened", component: "test", service: "client-portals" });
    expect(Date.parse(String(lines[0]?.["time"]))).not.toBeNaN();
  });

  it("puts the context on every line logged inside it, across awaits and timers, and not outside", async () => {
    const lines = captureLog();
    await withLogContext({ request_id: "r-1" }, async () => {
      log().info("first");
      await new Promise((r) => setTimeout(r, 5));
      log().info("after a timer");
      withoutLogContext(() => log().info("detached"));
    });
    log().info("outside");
    expect(lines.map((l) => [l["msg"], l["request_id"]])).toEqual([
      ["first", "r-1"],
      ["after a timer", "r-1"],
      ["detached", undefined],
      ["outside", undefined],
    ]);
  });

  it("an API request's lines all carry its request id, the failure with its error", async () => {
    const lines = captureLog();
    const route = publicApiRoute(getOpenApiOperation, async () => {
      log().info("inside the handler");
      throw new Error("boom");
    });
    const res = await route(new Request("http://localhost/api/v1/openapi.json", { headers: { "X-Request-Id": "req-42" } }));
    expect(res.status).toBe(500);
    expect(res.headers.get("x-request-id")).toBe("req-42");
    expect(lines.map((l) => l["msg"])).toEqual(["inside the handler", "API request failed"]);
    for (const line of lines) expect(line).toMatchObject({ request_id: "req-42", method: "GET", path: "/api/v1/openapi.json" });
    expect(lines[1]).toMatchObject({ level: "error", err: { message: "boom", type: "Error" } });
  });
});
