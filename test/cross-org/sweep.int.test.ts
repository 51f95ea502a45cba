import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_OPERATIONS } from "@/lib/api/openapi/operations";
import { callRoute } from "@/test/routes/call-route";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { changedTables, ORG_STATE_SQL, ORG_TABLES, type OrgState } from "@/lib/test-support/org-state";
import { createAttacker, createVictim, victimSecrets, type Attacker, type Victim } from "@/test/cross-org/fixtures";
import { SWEEP, type ApiRow } from "@/test/cross-org/table";
import { coveredByRows, missingRows, scanApp, staleRows, TABLE } from "@/test/cross-org/web-scan";

// Every row of the sweep table (table.ts): another organization's token on this organization's
// things answers not-found (D4) or only its own data, and changes nothing of the victim's.

const API_ROWS = SWEEP.filter((r): r is ApiRow => r.kind === "api");

let victim: Victim;
let attacker: Attacker;

const savedEnv = { ...process.env };
beforeAll(async () => {
  // Webhook URLs on loopback pass validation, so that a refusal is about whose webhook it is.
  process.env.OUTBOUND_ALLOW_PRIVATE = "true";
  resetEnvForTests();
  victim = await createVictim();
  attacker = await createAttacker();
});

afterAll(() => {
  process.env = savedEnv;
  resetEnvForTests();
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The request with every id of the victim's replaced by a fresh one, and the way back. */
function withUnknownIds<T>(value: T): { value: T; restore: (text: string) => string } {
  const victimIds = new Set(victimSecrets(victim).filter((s) => /^[0-9a-f-]{36}$/.test(s)));
  const map = new Map<string, string>();
  const text = JSON.stringify(value).replace(UUID, (id) => (victimIds.has(id) ? (map.get(id) ?? map.set(id, randomUUID()).get(id)!) : id));
  const back = new Map([...map].map(([real, ghost]) => [ghost, real]));
  return { value: JSON.parse(text) as T, restore: (t) => t.replace(UUID, (id) => back.get(id) ?? id) };
}

const victimState = async (): Promise<OrgState> => (await db.$queryRawUnsafe<OrgState[]>(ORG_STATE_SQL, victim.orgId))[0]!;

describe("the sweep table", () => {
  it("has a row for every API operation", () => {
    const covered = new Set(API_ROWS.map((r) => r.operationId));
    const missing = API_OPERATIONS.map((o) => o.operationId).filter((id) => !covered.has(id));
    expect(missing, "add rows for these operations to test/cross-org/table.ts").toEqual([]);
  });

  it("has a row for every page, route handler (outside /api/v1) and server action under app/", () => {
    expect(missingRows(scanApp(), coveredByRows()), "pages, routes and actions without a row").toEqual([]);
  });

  it("names only pages, routes and actions that app/ has", () => {
    expect(staleRows(scanApp(), coveredByRows()), `rows of ${TABLE} for things app/ no longer has`).toEqual([]);
  });

  it("spells out the row to add for a new page, route and action", () => {
    const surface = { pages: ["/org/[orgId]/reports"], routes: ["/files/[fileId]/download"], actions: ["app/x/actions.ts#archiveAction"] };
    const missing = missingRows(surface, new Set());
    expect(missing).toHaveLength(3);
    expect(missing[0]).toMatch(/^page \/org\/\[orgId\]\/reports: add page\("\/org\/\[orgId\]\/reports", .* to test\/cross-org\/table\.ts$/);
    expect(missing[1]).toContain('add route("/files/[fileId]/download", "GET"');
    expect(missing[2]).toContain('add action("app/x/actions.ts", "archiveAction"');
    expect(missingRows(surface, new Set([...surface.pages, ...surface.routes, ...surface.actions]))).toEqual([]);
  });

  it("compares every table that holds an organization's rows", async () => {
    const tables = await db.$queryRaw<{ table_name: string }[]>`
      SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'orgId' ORDER BY table_name`;
    const missing = tables.map((t) => t.table_name).filter((t) => !ORG_TABLES.includes(t));
    expect(missing, "add these tables to FULL_ROWS (or IDS_ONLY) in lib/test-support/org-state.ts").toEqual([]);
  });

  it("names only operations that exist, each served by the row's handler", () => {
    for (const row of API_ROWS) {
      const op = API_OPERATIONS.find((o) => o.operationId === row.operationId);
      expect(op, row.operationId).toBeDefined();
      expect(row.handler.operation, `${row.operationId}: ${row.attempt}`).toBe(op);
    }
  });
});

describe("another organization's token", () => {
  it.each(API_ROWS.map((r) => [`${r.operationId}: ${r.attempt}`, r] as const))("%s", async (_name, row: ApiRow) => {
    const before = await victimState();
    const options = row.request(victim, attacker);
    const res = await callRoute(row.handler, { method: row.handler.operation.method, ...options, token: attacker.token });

    if (row.expect === "not_found") {
      expect(res.status, res.text).toBe(404);
      expect(res.json).toMatchObject({ error: "not_found" });
    } else if (row.expect === "as_unknown") {
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.status, res.text).toBeLessThan(500);
      const unknown = withUnknownIds(options);
      const control = await callRoute(row.handler, { method: row.handler.operation.method, ...unknown.value, token: attacker.token });
      expect({ status: res.status, body: res.text }, "the same request with unknown ids").toEqual({
        status: control.status,
        body: unknown.restore(control.text),
      });
    } else {
      expect(res.status, res.text).toBeLessThan(500);
    }
    // Echoing an id the attacker sent tells it nothing; anything else of the victim's does.
    const sent = JSON.stringify(options);
    for (const secret of victimSecrets(victim).filter((s) => !sent.includes(s)))
      expect(res.text, "the answer names something of the victim's").not.toContain(secret);
    expect(changedTables(before, await victimState()), "the victim's rows changed").toEqual([]);
  });
});
