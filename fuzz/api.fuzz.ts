import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { OpenApiDocument, OpenApiOperation } from "@/lib/api/openapi/types";
import { createApiContext, createTestGuest, createTestWorkflowStates } from "@/lib/test-support/fixtures";
import { hostileRawBody, hostileSegment, hostileString, queryValue, toWellFormed } from "./hostile";
import pg from "pg";
import { changedTables, ORG_STATE_SQL, type OrgState } from "@/lib/test-support/org-state";
import { arbitraryFor, type JsonSchema, type SchemaContext } from "./schema-arbitrary";

// Property-based requests against the production server, generated from its own OpenAPI
// document: for every operation, valid-ish requests with hostile parts (path ids, query, body,
// headers). Properties: never a 5xx; every error has the spec's shape {error, error_description};
// a rejected request (4xx) changes nothing in the organization. FUZZ_SEED repeats a run; the
// seed and the shrunk counterexample are in the failure message.

const { seed, baseUrl } = inject("fuzz");
const RUNS = Number(process.env["FUZZ_RUNS"] ?? 60);

const doc = (await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json()) as OpenApiDocument;
const operations = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
  Object.entries(byMethod).map(([method, op]) => ({ path, method: method.toUpperCase(), op: op as OpenApiOperation })),
);

const pool = new pg.Pool({ connectionString: process.env["DATABASE_URL"], max: 2 });
const state = {
  read: async (id: string): Promise<OrgState> => (await pool.query<OrgState>(ORG_STATE_SQL, [id])).rows[0]!,
};
let orgId = "";
let token = "";
/** Whether an accepted write (or the setup) may still have background work running. */
let unsettled = true;

/** A run waiting longer than this (a reminder days ahead, on the executor's scaled clock) is not work under way. */
const SOON_MS = 2_000;

/**
 * Waits until the background work of the requests so far has finished: the organization's events
 * all handed over, and in the executor no batch gathering and no run queued, calling the app or
 * waiting for less than SOON_MS (a notification's email, for one, goes out after its batch window).
 * The check of a rejected request then sees only what that request did.
 */
async function settle(): Promise<void> {
  const executorUrl = process.env["INNGEST_BASE_URL"];
  if (!executorUrl) throw new Error("the fuzz server's environment names no executor (INNGEST_BASE_URL)");
  const deadline = Date.now() + 30_000;
  for (;;) {
    const pending = (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Event" WHERE "orgId" = $1 AND "dispatchedAt" IS NULL`, [orgId])).rows[0]!
      .n;
    const executor = (await (await fetch(`${executorUrl}/_executor/state`)).json()) as {
      gathering: number;
      runs: Array<{ functionId: string; status: string; wakesAt?: string }>;
    };
    const busy = executor.runs.filter((r) => (r.status === "Queued" || r.status === "Running") && !(r.wakesAt && Date.parse(r.wakesAt) > Date.now() + SOON_MS));
    if (pending === 0 && executor.gathering === 0 && busy.length === 0) return;
    if (Date.now() > deadline) {
      const what = `${pending} events not handed over, ${executor.gathering} batches gathering, runs of ${busy.map((r) => r.functionId).join(", ") || "none"}`;
      throw new Error(`background work still under way after 30 s: ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const ctx: SchemaContext = { components: (doc.components.schemas ?? {}) as Record<string, JsonSchema>, known: {} };

async function api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`setup: ${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  // An organization of its own with something in it, so that requests can name real things.
  const api0 = await createApiContext();
  orgId = api0.org.id;
  token = api0.token;
  const states = await createTestWorkflowStates(orgId);
  const portal = await api("POST", "/api/v1/portals", { name: "Fuzz target", tags: ["fuzz"] });
  const portalId = String(portal["id"]);
  const guest = await createTestGuest({ orgId, portalId });
  const task = await api("POST", `/api/v1/portals/${portalId}/tasks`, { title: "Fuzz task" });
  const ticket = await api("POST", `/api/v1/portals/${portalId}/files`, { filename: "fuzz.pdf", size: 10 });
  ctx.known = {
    portalId: [portalId],
    taskId: [String(task["task_id"])],
    task_id: [String(task["task_id"])],
    file_id: [String(ticket["file_id"])],
    workflowStateId: states.map((s) => s.id),
    workflowStateName: states.map((s) => s.name),
    assigned_member_ids: [api0.user.id],
    assigned_guest_ids: [guest.id],
  };
});

afterAll(() => pool.end());

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** An Authorization header: the organization's token mostly, sometimes none or a forged one. */
const authorization = fc.oneof(
  { weight: 12, arbitrary: fc.constant("valid") },
  { weight: 1, arbitrary: fc.constantFrom("", "Bearer ", "Bearer x", "Basic ADoA", "bearer ", "Bearer a.b.c", "Bearer %00") },
);

const idempotencyKey = fc.option(
  fc.oneof(
    fc.uuid(),
    fc.string({ unit: "binary-ascii", maxLength: 300 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
  ),
  { nil: undefined },
);

/**
 * A generated value as a client would put it in a query string: a scalar as its text, an object or
 * array as JSON. String() would throw on an object whose own `toString` or `valueOf` is not a
 * function, which JSON values such as {"toString": 0} are.
 */
function asQueryText(value: unknown): string {
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

function requestFor(path: string, method: string, op: OpenApiOperation): fc.Arbitrary<FuzzRequest> {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === "path");
  const queryParams = params.filter((p) => p.in === "query");

  const segment = (name: string) =>
    fc.oneof(
      { weight: 4, arbitrary: ctx.known[name]?.length ? fc.constantFrom(...ctx.known[name]) : fc.uuid() },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 3, arbitrary: hostileSegment },
    );
  const pathArb = fc
    .tuple(...pathParams.map((p) => segment(p.name)))
    .map((values) => pathParams.reduce((acc, p, i) => acc.replace(`{${p.name}}`, values[i]!), path));

  const queryArb = fc
    .tuple(
      fc.tuple(
        ...queryParams.map((p) =>
          fc.option(
            fc.oneof(
              { weight: 3, arbitrary: arbitraryFor((p.schema ?? {}) as JsonSchema, ctx, p.name).map((v) => encodeURIComponent(toWellFormed(asQueryText(v)))) },
              { weight: 1, arbitrary: queryValue },
            ),
            { nil: undefined, freq: 2 },
          ),
        ),
      ),
      // Undeclared parameters now and then (one request in four).
      fc.oneof(
        { weight: 3, arbitrary: fc.constant([] as Array<[string, string]>) },
        {
          weight: 1,
          arbitrary: fc.array(
            fc.tuple(
              hostileString.map((s) => encodeURIComponent(toWellFormed(s)).slice(0, 200)),
              queryValue,
            ),
            { minLength: 1, maxLength: 2 },
          ),
        },
      ),
    )
    .map(([declared, extra]) => {
      const pairs = [
        ...queryParams.map((p, i) => (declared[i] === undefined ? null : `${p.name}=${declared[i]}`)).filter((x) => x !== null),
        ...extra.map(([k, v]) => `${k}=${v}`),
      ];
      return pairs.length ? `?${pairs.join("&")}` : "";
    });

  const schema = (op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content?.["application/json"]?.schema;
  const bodyArb: fc.Arbitrary<string | undefined> = schema
    ? fc.oneof({ weight: 6, arbitrary: arbitraryFor(schema, ctx).map((v) => JSON.stringify(v) ?? "null") }, { weight: 1, arbitrary: hostileRawBody })
    : method === "GET" || method === "DELETE"
      ? fc.constant(undefined)
      : fc.option(hostileRawBody, { nil: undefined });

  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant("application/json") },
    { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1", "") },
  );

  return fc.record({ path: pathArb, query: queryArb, body: bodyArb, auth: authorization, key: idempotencyKey, contentType }).map((r) => {
    const headers: Record<string, string> = {};
    // The token itself is put in by send(): counterexamples stay short and print no credential.
    if (r.auth === "valid") headers["Authorization"] = "Bearer <the test organization's token>";
    else if (r.auth) headers["Authorization"] = r.auth;
    if (r.key !== undefined && method === "POST") headers["Idempotency-Key"] = r.key;
    if (r.body !== undefined && r.contentType) headers["Content-Type"] = r.contentType;
    return { method, path: r.path + r.query, headers, body: r.body };
  });
}

interface Outcome {
  status: number;
  contentType: string;
  text: string;
}

/** Statuses seen per property, printed after it: shows how far the requests got past validation. */
const statuses = new Map<string, Map<number, number>>();
let current = "";

async function send(req: FuzzRequest): Promise<Outcome> {
  const headers = { ...req.headers };
  if (headers["Authorization"]?.includes("<the test organization's token>")) headers["Authorization"] = `Bearer ${token}`;
  const res = await fetch(`${baseUrl}${req.path}`, { method: req.method, headers, body: req.body, redirect: "manual" });
  const seen = statuses.get(current) ?? new Map<number, number>();
  statuses.set(current, seen.set(res.status, (seen.get(res.status) ?? 0) + 1));
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", text: await res.text() };
}

/** Checks the properties of one request; throws with what went wrong (fast-check adds the seed and the shrunk request). */
async function check(req: FuzzRequest, options: { jsonErrors: boolean }): Promise<void> {
  if (unsettled) await settle();
  unsettled = false;
  const before: OrgState = await state.read(orgId);
  const out = await send(req);
  const where = `${req.method} ${req.path} → ${out.status}`;
  if (out.status >= 500) throw new Error(`${where}: a server error: ${out.text.slice(0, 300)}`);
  if (out.status < 400) {
    unsettled = req.method !== "GET" && req.method !== "HEAD";
    return;
  }
  // 431: Node's HTTP server refuses a request line or headers over 16 KB before Next.js sees it.
  if (options.jsonErrors && out.status !== 431) {
    if (!out.contentType.startsWith("application/json")) throw new Error(`${where}: an error that is not JSON (${out.contentType}): ${out.text.slice(0, 200)}`);
    const body = JSON.parse(out.text) as Record<string, unknown>;
    const keys = Object.keys(body).sort().join(",");
    if (keys !== "error,error_description" || typeof body["error"] !== "string" || typeof body["error_description"] !== "string" || !body["error"]) {
      throw new Error(`${where}: not the spec's error shape: ${out.text.slice(0, 300)}`);
    }
  }
  const changed = changedTables(before, await state.read(orgId));
  if (changed.length) throw new Error(`${where}: rejected, yet it changed ${changed.join(", ")}`);
}

async function run(name: string, property: fc.IAsyncProperty<[FuzzRequest]>, parameters: fc.Parameters<[FuzzRequest]>): Promise<void> {
  current = name;
  try {
    await fc.assert(property, parameters);
  } finally {
    const seen = [...(statuses.get(name) ?? new Map<number, number>())].sort(([a], [b]) => a - b);
    process.stdout.write(`[fuzz] ${name}: ${seen.map(([status, n]) => `${status}×${n}`).join(" ")}\n`);
  }
}

/** Each property its own seed, derived from the run's: the same case number means different requests. */
const settings = (runs: number, index: number): fc.Parameters<[FuzzRequest]> => ({
  seed: seed + index,
  numRuns: runs,
  endOnFailure: false,
  interruptAfterTimeLimit: 20_000,
  markInterruptAsFailure: false,
});

describe("every /api/v1 operation, from the OpenAPI document", () => {
  it.each(operations.map((o, i) => [`${o.method} ${o.path}`, o, i] as const))(
    "%s: no 5xx, errors in the spec's shape, nothing changed by a rejected request",
    async (name, o, i) => {
      await run(
        name,
        fc.asyncProperty(requestFor(o.path, o.method, o.op), (req) => check(req, { jsonErrors: true })),
        settings(RUNS, i),
      );
    },
  );
});

// OAuth: form fields from the token request's parameters (RFC 6749), hostile values among them.
const formValue = fc.oneof(
  fc.constantFrom("authorization_code", "refresh_token", "client_credentials", "password", "code", "https://client.example/callback", "portal:read"),
  hostileString.map(toWellFormed),
  hostileString,
);
const formField = fc.constantFrom("grant_type", "code", "redirect_uri", "client_id", "client_secret", "refresh_token", "scope", "code_verifier", "x");

function formBody(fields: Array<[string, string]>): string {
  // Lone surrogates cannot be encoded with URLSearchParams; they go in as badly encoded bytes.
  return fields.map(([k, v]) => `${k}=${v.includes("\ud800") ? "%ED%A0%80" : encodeURIComponent(toWellFormed(v))}`).join("&");
}

describe("OAuth endpoints", () => {
  it("POST /oauth/token: no 5xx, errors in the spec's shape, nothing issued for a rejected request", async () => {
    const req = fc
      .record({
        fields: fc.array(fc.tuple(formField, formValue), { maxLength: 6 }),
        basic: fc.option(
          fc.oneof(
            fc.constantFrom("Basic ADoA", "Basic", "Basic !!!", "Basic Og==", "Bearer x"),
            fc.string({ unit: "binary-ascii", maxLength: 40 }).map((s) => `Basic ${Buffer.from(s).toString("base64")}`),
          ),
          { nil: undefined },
        ),
        contentType: fc.constantFrom("application/x-www-form-urlencoded", "application/json", "text/plain"),
      })
      .map(({ fields, basic, contentType }): FuzzRequest => ({
        method: "POST",
        path: "/oauth/token",
        headers: { "Content-Type": contentType, ...(basic ? { Authorization: basic } : {}) },
        body: formBody(fields),
      }));
    await run(
      "POST /oauth/token",
      fc.asyncProperty(req, (r) => check(r, { jsonErrors: true })),
      settings(RUNS * 2, 1_000),
    );
  });

  it("GET /oauth/authorize: no 5xx, nothing changed", async () => {
    const req = fc
      .array(
        fc.tuple(
          fc.constantFrom("response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method", "prompt"),
          fc.oneof(formValue, queryValue),
        ),
        { maxLength: 7 },
      )
      .map((fields): FuzzRequest => ({
        method: "GET",
        path: `/oauth/authorize?${fields.map(([k, v]) => `${k}=${/%/.test(v) ? v : encodeURIComponent(toWellFormed(v))}`).join("&")}`,
        headers: {},
      }));
    // Errors here are HTML pages or redirects to the client, not JSON.
    await run(
      "GET /oauth/authorize",
      fc.asyncProperty(req, (r) => check(r, { jsonErrors: false })),
      settings(RUNS * 2, 2_000),
    );
  });
});

it("the document lists operations to fuzz", () => {
  expect(operations.length).toBeGreaterThan(15);
});
