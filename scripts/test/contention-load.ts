/**
 * The contention load (docs/database.md): `clients` API clients, each with its own token, hammer one
 * portal with every kind of write for `durationMs`, while the server's event relay and the partner
 * verification job run. Every client owns what it writes (its external id key, its tasks, its
 * uploads, its guests; client 0 the workflow state, client 1 the partner id), so the expected end
 * state follows from its own 2xx answers, whatever the interleaving; the portal row, the partner
 * link, the rate-limit counters and the outbox are what they all contend for.
 *
 * `checkContention` then compares the database with the answers: every 2xx change present exactly
 * once, with exactly one event each, handed over once; the portal's counters exact.
 * Used by scripts/test/contention.int.test.ts (short) and faults/ (60 s).
 */
import { randomUUID } from "node:crypto";

export interface ContentionTarget {
  baseUrl: string;
  /** One access token per client (all of one organization). */
  tokens: string[];
  portalId: string;
  /** Two workflow states of the organization: client 0 alternates between them. */
  states: [{ id: string; name: string }, { id: string; name: string }];
  durationMs: number;
}

type Op = "extId" | "taskCreate" | "taskComplete" | "taskReopen" | "upload" | "guest" | "workflow" | "partner";

export interface ContentionRun {
  requests: number;
  statuses: Record<string, number>;
  /** Answers of 500 and above, with their bodies. */
  failures: { op: Op; status: number; body: string }[];
  /** Any other answer that is not 2xx, with its body (a 4xx here is a bug of the load or the server). */
  refused: { op: Op; status: number; body: string }[];
  latenciesMs: number[];
  byOp: Record<string, number>;
  expected: {
    tasks: Map<string, "Open" | "Done">;
    completions: Map<string, number>;
    files: Set<string>;
    guests: Set<string>;
    externalIds: Map<string, string | null>;
    workflowChanges: number;
    lastState: string | null;
    partnerSets: number;
    partnerClears: number;
    partnerLast: string | null;
  };
}

/**
 * An organization connected to the partner at `partnerUrl` (the sandbox), with `clients` OAuth
 * clients and a token each, two workflow states, and `portals` portals in the first state. The
 * modules are loaded here, after the caller set the environment (the fault tier sets it late).
 */
export async function createContentionOrg({ clients, portals, partnerUrl, apiKey }: { clients: number; portals: number; partnerUrl: string; apiKey: string }) {
  const { createApiContext, createTestClient, createTestPortal, createTestWorkflowStates } = await import("../../lib/test-support/fixtures.ts");
  const { db } = await import("../../lib/db.ts");
  const { issueAccessToken } = await import("../../lib/oauth/access-token.ts");
  const { ALL_SCOPES } = await import("../../lib/access/scopes.ts");
  const { getUserViewer } = await import("../../lib/access/viewer.ts");
  const { connectPartner } = await import("../../lib/partner/connection.ts");
  const { org, user, token } = await createApiContext();
  const tokens = [token];
  for (let i = 1; i < clients; i++) {
    const { client } = await createTestClient({ orgId: org.id, actorUserId: user.id, name: `Contention ${i}` });
    const grant = await db.oAuthGrant.create({ data: { orgId: org.id, clientId: client.id, userId: user.id, scopes: ALL_SCOPES } });
    tokens.push((await issueAccessToken({ grantId: grant.id, userId: user.id, orgId: org.id, clientId: client.clientId, scopes: ALL_SCOPES })).token);
  }
  await connectPartner({ viewer: await getUserViewer(user.id, org.id), apiUrl: partnerUrl, apiKey });
  const [first, second] = await createTestWorkflowStates(org.id, ["Onboarding", "Review"]);
  const states: ContentionTarget["states"] = [
    { id: first!.id, name: first!.name },
    { id: second!.id, name: second!.name },
  ];
  const portalIds: string[] = [];
  for (let i = 0; i < portals; i++) portalIds.push((await createTestPortal({ orgId: org.id, workflowStateId: first!.id })).id);
  return { orgId: org.id, tokens, states, portalIds };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function runContention(target: ContentionTarget): Promise<ContentionRun> {
  const run: ContentionRun = {
    requests: 0,
    statuses: {},
    failures: [],
    refused: [],
    latenciesMs: [],
    byOp: {},
    expected: {
      tasks: new Map(),
      completions: new Map(),
      files: new Set(),
      guests: new Set(),
      externalIds: new Map(),
      workflowChanges: 0,
      lastState: null,
      partnerSets: 0,
      partnerClears: 0,
      partnerLast: null,
    },
  };
  const deadline = Date.now() + target.durationMs;
  const { portalId } = target;

  const call = async (token: string, op: Op, method: string, path: string, body?: unknown) => {
    const started = performance.now();
    const res = await fetch(`${target.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    run.latenciesMs.push(performance.now() - started);
    run.requests++;
    run.statuses[res.status] = (run.statuses[res.status] ?? 0) + 1;
    run.byOp[op] = (run.byOp[op] ?? 0) + 1;
    if (res.status >= 500) run.failures.push({ op, status: res.status, body: text });
    else if (res.status >= 300) run.refused.push({ op, status: res.status, body: text });
    return { status: res.status, ok: res.status < 300, json: (text ? JSON.parse(text) : null) as Record<string, unknown> };
  };

  const client = async (i: number) => {
    const token = target.tokens[i]!;
    const open: string[] = [];
    const done: string[] = [];
    let n = 0;
    let state = 0;
    let partnerSet = false;
    const key = `crm${i}`;
    const ops: Op[] = ["extId", "taskCreate", "taskComplete", "taskReopen", "upload", "guest"];
    if (i === 0) ops.push("workflow", "workflow", "workflow");
    if (i === 1) ops.push("partner", "partner", "partner");
    while (Date.now() < deadline) {
      n++;
      let op = ops[Math.floor(Math.random() * ops.length)]!;
      if (op === "taskComplete" && open.length === 0) op = "taskCreate";
      if (op === "taskReopen" && done.length === 0) op = "taskCreate";
      if (op === "extId") {
        const value = run.expected.externalIds.get(key) ? null : `C${i}-${n}`;
        const res = await call(token, op, "PATCH", `/api/v1/portals/${portalId}`, { externalSystemIds: { [key]: value } });
        if (res.ok) run.expected.externalIds.set(key, value);
      } else if (op === "taskCreate") {
        const res = await call(token, op, "POST", `/api/v1/portals/${portalId}/tasks`, { title: `Task ${i}-${n}` });
        if (res.ok) {
          const id = String(res.json["task_id"]);
          run.expected.tasks.set(id, "Open");
          open.push(id);
        }
      } else if (op === "taskComplete") {
        const id = open.splice(Math.floor(Math.random() * open.length), 1)[0]!;
        const res = await call(token, op, "POST", `/api/v1/tasks/${id}/complete`);
        if (res.ok) {
          run.expected.tasks.set(id, "Done");
          run.expected.completions.set(id, (run.expected.completions.get(id) ?? 0) + 1);
          done.push(id);
        } else open.push(id);
      } else if (op === "taskReopen") {
        const id = done.splice(Math.floor(Math.random() * done.length), 1)[0]!;
        const res = await call(token, op, "PATCH", `/api/v1/tasks/${id}`, { status: "Open" });
        if (res.ok) {
          run.expected.tasks.set(id, "Open");
          open.push(id);
        } else done.push(id);
      } else if (op === "upload") {
        const bytes = Buffer.from(`contention ${i}-${n} ${randomUUID()}`);
        const filename = `upload-${i}-${n}.txt`;
        const started = await call(token, op, "POST", `/api/v1/portals/${portalId}/files`, { filename, contentType: "text/plain", size: bytes.length });
        if (!started.ok) continue;
        const put = await fetch(String(started.json["upload_url"]), { method: "PUT", body: new Uint8Array(bytes), headers: { "content-type": "text/plain" } });
        if (put.status !== 200) throw new Error(`storage PUT answered ${put.status}`);
        const completed = await call(token, op, "POST", `/api/v1/portals/${portalId}/files/complete`, { file_id: started.json["file_id"], filename });
        if (completed.ok) run.expected.files.add(String(started.json["file_id"]));
      } else if (op === "guest") {
        const email = `guest-${i}-${n}-${randomUUID().slice(0, 8)}@contention.example`;
        const res = await call(token, op, "POST", `/api/v1/portals/${portalId}/guests`, { email, name: `Guest ${i}-${n}` });
        if (res.ok) run.expected.guests.add(email);
      } else if (op === "workflow") {
        const next = target.states[(state + 1) % 2]!;
        const res = await call(token, op, "POST", `/api/v1/portals/${portalId}/workflow`, { workflowStateId: next.id, workflowStateName: next.name });
        if (res.ok) {
          state = (state + 1) % 2;
          run.expected.workflowChanges++;
          run.expected.lastState = next.id;
        }
      } else {
        // The partner id saved and cleared again 0-400 ms later, as the loop that found the deadlock.
        const value: string | null = partnerSet ? null : "234567";
        if (value === null) await new Promise((resolve) => setTimeout(resolve, Math.random() * 400));
        const res = await call(token, op, "PATCH", `/api/v1/portals/${portalId}`, { externalSystemIds: { partner: value } });
        if (res.ok) {
          partnerSet = value !== null;
          if (value === null) run.expected.partnerClears++;
          else run.expected.partnerSets++;
          run.expected.partnerLast = value;
        }
      }
    }
  };
  // The first state is client 0's starting point: the portal starts in states[0].
  await Promise.all(target.tokens.map((_, i) => client(i)));
  return run;
}

export interface Sql {
  <T>(text: string, values?: unknown[]): Promise<T[]>;
}

export interface ContentionCheck {
  /** Mismatches found; empty when every change is present exactly once with exactly one event. */
  problems: string[];
  events: number;
}

/** Compares the database with the run's 2xx answers (after every event was dispatched). */
export async function checkContention(sql: Sql, run: ContentionRun, orgId: string, portalId: string): Promise<ContentionCheck> {
  const problems: string[] = [];
  const same = (what: string, actual: unknown, expected: unknown) => {
    const a = JSON.stringify(actual);
    const e = JSON.stringify(expected);
    if (a !== e) problems.push(`${what}: expected ${e.slice(0, 400)}, found ${a.slice(0, 400)}`);
  };
  const sorted = <T>(xs: Iterable<T>) => [...xs].map(String).sort();

  const tasks = await sql<{ id: string; status: string }>(`SELECT id, status::text FROM "Task" WHERE "portalId" = $1::uuid AND "deletedAt" IS NULL`, [
    portalId,
  ]);
  same("tasks (id and status)", tasks.map((t) => `${t.id}:${t.status}`).sort(), [...run.expected.tasks].map(([id, s]) => `${id}:${s}`).sort());

  const events = await sql<{ id: string; type: string; data: Record<string, unknown> }>(`SELECT id, type, data FROM "Event" WHERE "orgId" = $1::uuid`, [orgId]);
  const ofType = (type: string) => events.filter((e) => e.type === type);
  same("task.created events (one per task)", sorted(ofType("task.created").map((e) => e.data["task_id"])), sorted(run.expected.tasks.keys()));
  const completions = new Map<string, number>();
  for (const e of ofType("task.completed")) completions.set(String(e.data["task_id"]), (completions.get(String(e.data["task_id"])) ?? 0) + 1);
  same("task.completed events (one per 2xx completion)", [...completions].sort(), [...run.expected.completions].sort());

  const files = await sql<{ id: string }>(
    `SELECT id FROM "FileEntry" WHERE "portalId" = $1::uuid AND status = 'registered' AND "isFolder" = false AND "deletedAt" IS NULL`,
    [portalId],
  );
  same("registered files", sorted(files.map((f) => f.id)), sorted(run.expected.files));
  same("file.uploaded events (one per file)", sorted(ofType("file.uploaded").map((e) => e.data["file_id"])), sorted(run.expected.files));

  const guests = await sql<{ email: string }>(`SELECT u.email FROM "PortalGuest" g JOIN "User" u ON u.id = g."userId" WHERE g."portalId" = $1::uuid`, [
    portalId,
  ]);
  same("guests", sorted(guests.map((g) => g.email)), sorted(run.expected.guests));
  same("guest.invited events (one per guest)", sorted(ofType("guest.invited").map((e) => e.data["guest_email"])), sorted(run.expected.guests));

  const ids = await sql<{ systemKey: string; value: string }>(`SELECT "systemKey", value FROM "ExternalSystemId" WHERE "portalId" = $1::uuid`, [portalId]);
  const expectedIds = [...run.expected.externalIds].filter(([, v]) => v !== null).map(([k, v]) => `${k}=${v}`);
  if (run.expected.partnerLast) expectedIds.push(`partner=${run.expected.partnerLast}`);
  same("external ids", ids.map((r) => `${r.systemKey}=${r.value}`).sort(), expectedIds.sort());

  same("portal.workflow_changed events (one per 2xx change)", ofType("portal.workflow_changed").length, run.expected.workflowChanges);
  same("partner.link_changed events (one per 2xx save or clear)", ofType("partner.link_changed").length, run.expected.partnerSets + run.expected.partnerClears);
  same("portal.unlinked events (one per 2xx clear)", ofType("portal.unlinked").length, run.expected.partnerClears);

  const [portal] = await sql<{ workflowStateId: string | null }>(`SELECT "workflowStateId" FROM "Portal" WHERE id = $1::uuid`, [portalId]);
  if (run.expected.lastState) same("workflow state", portal?.workflowStateId, run.expected.lastState);
  const [link] = await sql<{ status: string; customerId: string }>(`SELECT status::text, "customerId" FROM "PartnerLink" WHERE "portalId" = $1::uuid`, [
    portalId,
  ]);
  if (run.expected.partnerSets > 0) same("partner link cleared or not", link?.status === "unlinked", run.expected.partnerLast === null);
  return { problems, events: events.length };
}

/** The portal's counters as the API answers them, against the tasks the run left. */
export async function checkCounters(baseUrl: string, token: string, run: ContentionRun, portalId: string): Promise<string[]> {
  const res = await fetch(`${baseUrl}/api/v1/portals/${portalId}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { open_task_count: number; done_task_count: number };
  const statuses = [...run.expected.tasks.values()];
  const expected = { open: statuses.filter((s) => s === "Open").length, done: statuses.filter((s) => s === "Done").length };
  const actual = { open: body.open_task_count, done: body.done_task_count };
  return JSON.stringify(actual) === JSON.stringify(expected) ? [] : [`counters: expected ${JSON.stringify(expected)}, found ${JSON.stringify(actual)}`];
}

/** One line of figures. */
export function figures(name: string, run: ContentionRun, retries: number | string, seconds: number): string {
  const ops = Object.entries(run.byOp)
    .map(([op, count]) => `${op} ${count}`)
    .join(", ");
  return (
    `${name}: ${run.requests} requests in ${seconds} s (${ops}); statuses ${JSON.stringify(run.statuses)}; ` +
    `p50 ${percentile(run.latenciesMs, 50).toFixed(0)} ms, p99 ${percentile(run.latenciesMs, 99).toFixed(0)} ms; transactions retried: ${retries}`
  );
}
