import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation } from "@/lib/api/operation";
import { exactJson, json } from "@/lib/api/response";
import { publicApiRoute } from "@/lib/api/route";
import { captureLog, restoreLogger } from "@/lib/test-support/log-capture";

// exactJson: in production a body built as sent (the schema's output) goes out without
// the schema's parse; outside production (here) it is turned back into the schema's input and
// parsed, and a builder that does not write exactly what the parse would fails the request.

afterEach(restoreLogger);

const Thing = z.object({ a: z.string(), at: z.date().transform((d) => d.toISOString()), b: z.int().optional() });
const op = defineOperation({
  method: "GET",
  path: "/api/v1/things",
  operationId: "things",
  summary: "Test operation",
  tag: "Test",
  scope: "public",
  responses: { 200: z.array(Thing) },
});
const call = async (body: unknown, exact = true) => {
  captureLog();
  const route = publicApiRoute(op, async () => (exact ? exactJson(body as z.output<typeof Thing>[], 200) : json(body as z.input<typeof Thing>[], 200)));
  const res = await route(new Request("http://localhost/api/v1/things"));
  return { status: res.status, text: await res.text() };
};
const at = new Date("2026-01-02T03:04:05.678Z");

const iso = at.toISOString();

describe("exactJson", () => {
  it("sends the builder's body when the schema's parse writes the same bytes (date-times as ISO text)", async () => {
    const sent = await call([
      { a: "x", at: iso, b: 1 },
      { a: "y", at: iso },
    ]);
    expect(sent).toEqual({ status: 200, text: '[{"a":"x","at":"2026-01-02T03:04:05.678Z","b":1},{"a":"y","at":"2026-01-02T03:04:05.678Z"}]' });
    // json() with the schema's input answers the same.
    expect(
      await call(
        [
          { a: "x", at, b: 1 },
          { a: "y", at },
        ],
        false,
      ),
    ).toEqual(sent);
  });

  it.each([
    ["a key out of the schema's order", [{ at: iso, a: "x" }]],
    ["a key the schema does not declare (which the parse would drop)", [{ a: "x", at: iso, secret: "s" }]],
    ["a date-time not written as toISOString writes it", [{ a: "x", at: "2026-01-02T03:04:05Z" }]],
    ["a date-time that is no date", [{ a: "x", at: "soon" }]],
    ["a value of the wrong type", [{ a: 1, at: iso }]],
  ])("fails the request (500) outside production for %s", async (_what, body) => {
    expect((await call(body)).status).toBe(500);
  });
});
