import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { encode } from "next-auth/jwt";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { randomUUID } from "node:crypto";
import { createAttacker, createVictim, portalSecrets, victimSecrets, type Attacker, type Victim } from "@/test/cross-org/fixtures";
import { SWEEP, type ActionRow, type PageRow, type WebCaller, type WebExpectation, type WebRouteRow } from "@/test/cross-org/table";
import { changedTables, ORG_STATE_SQL, type OrgState } from "@/lib/test-support/org-state";

// The web half of the cross-organization sweep: every page, route handler and server action of
// app/, called over HTTP against the production build (the fuzz tier's server) by a member of
// another organization and by a guest of another portal of the victim's organization, from the
// rows of table.ts. Over HTTP rather than by importing the actions: an action reads its session
// through next/headers, which only exists inside Next's request handling, and the HTTP call is
// exactly what a hostile browser can send (any bound organization id, any form fields), through
// the proxy, the CSRF origin check and React's own reply decoding. Action ids come from the
// build's server-reference manifest; the body is encoded with React's encodeReply, as the
// browser's client does. That every page, route and action has a row is checked in the
// integration tier (sweep.int.test.ts, web-scan.ts), without a build.

const root = fileURLToPath(new URL("../..", import.meta.url));
const { baseUrl } = inject("fuzz");

// --- the calls ----------------------------------------------------------------------------------

type Callers = Record<WebCaller, { cookie: string; userId: string }>;
let victim: Victim;
let attacker: Attacker;
let callers: Callers;
const pool = new pg.Pool({ connectionString: process.env["DATABASE_URL"], max: 2 });
const victimState = async (): Promise<OrgState> => (await pool.query<OrgState>(ORG_STATE_SQL, [victim.orgId])).rows[0]!;

// The session cookie Auth.js sets over http (lib/auth: JWT sessions), signed with the server's
// secret, naming a UserSession row as a sign-in makes one (lib/auth/user-sessions.ts).
const SESSION_COOKIE = "authjs.session-token";
async function sessionCookie(user: { id: string; email: string; name: string | null }): Promise<string> {
  const sid = crypto.randomUUID();
  await pool.query(`INSERT INTO "UserSession" (id, "userId") VALUES ($1, $2)`, [sid, user.id]);
  const token = await encode({ token: { sub: user.id, sid, email: user.email, name: user.name }, secret: process.env["AUTH_SECRET"]!, salt: SESSION_COOKIE });
  return `${SESSION_COOKIE}=${token}`;
}

type ManifestEntry = { filename?: string; exportedName?: string };
/** `file#export` -> the action's id in this build. */
function actionIds(): Map<string, string> {
  const manifest = JSON.parse(readFileSync(path.join(root, ".next/server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, ManifestEntry>;
  };
  const ids = new Map<string, string>();
  for (const [id, entry] of Object.entries(manifest.node)) if (entry.filename && entry.exportedName) ids.set(`${entry.filename}#${entry.exportedName}`, id);
  return ids;
}

const require = createRequire(import.meta.url);
const { encodeReply } = require("next/dist/compiled/react-server-dom-webpack/client.edge") as {
  encodeReply: (value: unknown) => Promise<string | FormData>;
};

beforeAll(async () => {
  victim = await createVictim();
  attacker = await createAttacker();
  callers = {
    member: { cookie: await sessionCookie(attacker.user), userId: attacker.user.id },
    guest: { cookie: await sessionCookie(victim.outsider.user), userId: victim.outsider.user.id },
  };
  // The guest's first visit records it (PortalGuest.lastSeenAt); later visits within the hour do not.
  await fetch(`${baseUrl}/org/${victim.orgId}`, { headers: { cookie: callers.guest.cookie }, redirect: "manual" });
});

afterAll(() => pool.end());

/**
 * A GET (or the row's method) as the caller, following redirects within the application (a member
 * page sends a guest to the guest view of the same portal): the answer is where it ends. A
 * redirect elsewhere (a signed storage URL) is the answer itself.
 */
async function get(pathname: string, caller: WebCaller, method = "GET"): Promise<{ status: number; text: string }> {
  let url = new URL(pathname, baseUrl);
  for (let hops = 0; ; hops++) {
    const res = await fetch(url, { method, headers: { cookie: callers[caller].cookie }, redirect: "manual" });
    const location = res.headers.get("location");
    const next = location ? new URL(location, url) : null;
    if (!next || res.status < 300 || res.status >= 400 || next.origin !== url.origin || hops === 5)
      return { status: res.status, text: `${location ?? ""}\n${await res.text()}` };
    await res.body?.cancel();
    url = next;
    method = "GET";
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * The form's fields with every id of the victim's the caller must not know replaced by a fresh
 * one, and the way back for the answer. The bound organization id stays: for the guest it is its
 * own organization.
 */
function withUnknownIds(args: ActionArgs, secrets: string[]): { value: ActionArgs; restore: (text: string) => string } {
  const victimIds = new Set(secrets.filter((s) => /^[0-9a-f-]{36}$/.test(s)));
  const map = new Map<string, string>();
  const text = JSON.stringify(args.fields).replace(UUID, (id) => (victimIds.has(id) ? (map.get(id) ?? map.set(id, randomUUID()).get(id)!) : id));
  const back = new Map([...map].map(([real, ghost]) => [ghost, real]));
  return { value: { bound: args.bound, fields: JSON.parse(text) as ActionArgs["fields"] }, restore: (t) => t.replace(UUID, (id) => back.get(id) ?? id) };
}

type ActionArgs = ReturnType<ActionRow["args"]>;
const secretsFor = (caller: WebCaller) => (caller === "member" ? [...victimSecrets(victim), ...portalSecrets(victim)] : portalSecrets(victim));

async function callAction(row: ActionRow, caller: WebCaller, args = row.args(victim, attacker)): Promise<{ status: number; text: string }> {
  const id = actionIds().get(`${row.file}#${row.exportName}`);
  if (!id) throw new Error(`the build has no server action ${row.file}#${row.exportName} (rebuild: next build)`);
  const { bound, fields } = args;
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(name, v);
  const body = await encodeReply([...bound, form]);
  const res = await fetch(`${baseUrl}${row.page(victim, attacker)}`, {
    method: "POST",
    headers: { cookie: callers[caller].cookie, "Next-Action": id, Accept: "text/x-component", Origin: new URL(baseUrl).origin },
    body,
    redirect: "manual",
  });
  return { status: res.status, text: await res.text() };
}

type Probe = PageRow | WebRouteRow | ActionRow;
const probes = SWEEP.filter((r): r is Probe => r.kind === "page" || r.kind === "route" || r.kind === "action").flatMap((row) =>
  (Object.entries(row.expect) as Array<[WebCaller, WebExpectation]>).map(([caller, expected]) => {
    const name = row.kind === "action" ? `${row.exportName}` : `${row.kind === "route" ? row.method : "GET"} ${row.route}`;
    return [`${caller}: ${name}: ${row.attempt}`, row, caller, expected] as const;
  }),
);

describe("another organization's member, and a guest of another portal", () => {
  it.each(probes)("%s", async (_name, row, caller, expected) => {
    const before = await victimState();
    let sent = "";
    let res: { status: number; text: string };
    if (row.kind === "action") {
      sent = JSON.stringify(row.args(victim, attacker));
      res = await callAction(row, caller);
      expect(res.status, res.text.slice(0, 500)).toBe(200);
      // The action's result is the form's state: a not_found refusal's message.
      if (expected === "not_found") expect(res.text, "the action's answer").toMatch(/"error":"(Organization|Page|[A-Za-z ]+) not found"/);
      if (expected === "as_unknown") {
        expect(res.text, "the action's answer is a refusal").toMatch(/"(error|fieldErrors)":/);
        const unknown = withUnknownIds(row.args(victim, attacker), secretsFor(caller));
        const control = await callAction(row, caller, unknown.value);
        expect(res.text, "the same call with unknown ids").toBe(unknown.restore(control.text));
      }
    } else {
      const pathname = row.path(victim, attacker);
      sent = pathname;
      res = await get(pathname, caller, row.kind === "route" ? row.method : "GET");
      if (expected === "not_found") expect(res.status, `${pathname}: ${res.text.slice(0, 300)}`).toBe(404);
      else expect(res.status, pathname).toBeLessThan(400);
    }
    for (const secret of secretsFor(caller).filter((s) => !sent.includes(s)))
      expect(res.text, "the answer names something of the victim's").not.toContain(secret);
    expect(changedTables(before, await victimState()), "the victim's rows changed").toEqual([]);
  });
});
