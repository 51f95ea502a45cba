import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
// Loading the Inngest client registers it as the outbox's sender (lib/events/sender.ts).
import "@/inngest/client";
import { claimOrg, dispatchPendingEvents } from "@/lib/events/dispatch-pending-events";
import { recordEvent } from "@/lib/events/record-event";
import { startInngestReceiver, type InngestReceiver } from "@/lib/events/test-support/inngest-receiver";
import { eventDataSchemas, relayedEventSchemas, type EventData } from "@/lib/events/types";
import { connectTestPartner, createTestGuest } from "@/lib/test-support/fixtures";

// The outbox against a real PostgreSQL and a real HTTP server standing in for Inngest's event API.
// Every test works in its own organization and dispatches only that organization's events.

const EVENT_KEY = "test-event-key";
let receiver: InngestReceiver;
const savedEnv = { ...process.env };

beforeAll(async () => {
  receiver = await startInngestReceiver();
  // Cloud mode with an event key, as in production, pointed at the receiver.
  process.env.INNGEST_BASE_URL = receiver.url;
  process.env.INNGEST_EVENT_KEY = EVENT_KEY;
  process.env.INNGEST_DEV = "0";
  resetEnvForTests();
});

afterAll(async () => {
  await receiver.close();
  process.env = savedEnv;
  resetEnvForTests();
});

beforeEach(async () => {
  await receiver.listen();
  receiver.setRefusing(false);
  receiver.setDelay(0);
});

async function createOrg() {
  const org = await db.organization.create({ data: { name: `events-test-${randomUUID()}` } });
  const portal = await db.portal.create({ data: { orgId: org.id, name: "Events portal" } });
  return { orgId: org.id, portalId: portal.id };
}

function receivedFor(orgId: string) {
  return receiver.events.filter((e) => e.data.org_id === orgId);
}

/** `count` file.uploaded events, each committed on its own; their ids in order. */
async function recordUploads(orgId: string, portalId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { id } = await db.$transaction((tx) => recordEvent(tx, { orgId, portalId, type: "file.uploaded", data: fileUploaded() }));
    ids.push(id);
  }
  return ids;
}

function fileUploaded(): EventData<"file.uploaded"> {
  return {
    file_id: randomUUID(),
    name: "report.pdf",
    extension: "pdf",
    size: 1234,
    content_type: "application/pdf",
    uploaded_by: randomUUID(),
    uploaded_by_email: "ann@example.com",
    uploaded_by_name: "Ann",
    task_id: null,
  };
}

class Rollback extends Error {}

describe("dispatchPendingEvents", () => {
  it("never hands over an event whose transaction rolled back", async () => {
    const { orgId, portalId } = await createOrg();
    let rolledBackId = "";
    await expect(
      db.$transaction(async (tx) => {
        const { id } = await recordEvent(tx, {
          orgId,
          portalId,
          type: "guest.invited",
          data: { guest_email: "rolled-back@example.com", guest_name: null, invited_by: null },
        });
        rolledBackId = id;
        throw new Rollback("the change failed");
      }),
    ).rejects.toBeInstanceOf(Rollback);
    const committed = await db.$transaction((tx) =>
      recordEvent(tx, {
        orgId,
        portalId,
        type: "guest.invited",
        data: { guest_email: "committed@example.com", guest_name: "Bo", invited_by: null },
      }),
    );

    const result = await dispatchPendingEvents({ orgId });

    expect(rolledBackId).not.toBe("");
    expect(result).toEqual({ sent: 1, failed: 0 });
    expect(receivedFor(orgId).map((e) => e.id)).toEqual([committed.id]);
    expect(receiver.events.some((e) => e.id === rolledBackId)).toBe(false);
    expect(await db.event.findUnique({ where: { id: rolledBackId } })).toBeNull();
    expect(await db.event.count({ where: { orgId } })).toBe(1);
  });

  it("keeps events pending while Inngest is down and hands them over once it is back", async () => {
    const { orgId, portalId } = await createOrg();
    const data = fileUploaded();
    const { id } = await db.$transaction((tx) => recordEvent(tx, { orgId, portalId, type: "file.uploaded", data }));

    await receiver.pause();
    expect(await dispatchPendingEvents({ orgId })).toEqual({ sent: 0, failed: 1 });
    let row = await db.event.findUniqueOrThrow({ where: { id } });
    expect(row.dispatchedAt).toBeNull();
    expect(row.dispatchAttempts).toBe(1);
    expect(row.lastDispatchError).toMatch(/fetch failed|ECONNREFUSED/);

    await receiver.listen();
    receiver.setRefusing(true);
    const refusedBefore = receiver.refused;
    expect(await dispatchPendingEvents({ orgId })).toEqual({ sent: 0, failed: 1 });
    expect(receiver.refused).toBeGreaterThan(refusedBefore);
    row = await db.event.findUniqueOrThrow({ where: { id } });
    expect(row.dispatchedAt).toBeNull();
    expect(row.dispatchAttempts).toBe(2);
    expect(row.lastDispatchError).toContain("500");
    expect(receivedFor(orgId)).toEqual([]);

    receiver.setRefusing(false);
    expect(await dispatchPendingEvents({ orgId })).toEqual({ sent: 1, failed: 0 });
    expect(await dispatchPendingEvents({ orgId })).toEqual({ sent: 0, failed: 0 });

    row = await db.event.findUniqueOrThrow({ where: { id } });
    expect(row.dispatchedAt).toBeInstanceOf(Date);
    expect(row.dispatchAttempts).toBe(2);
    expect(row.lastDispatchError).toBeNull();
    const received = receivedFor(orgId);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      id,
      name: "file.uploaded",
      ts: row.occurredAt.getTime(),
      data: { event_id: id, org_id: orgId, portal_id: portalId, ...data, routes: { webhooks: false, partner: false, clients: false } },
    });
    expect(Object.keys(received[0]?.data ?? {}).sort()).toEqual(["event_id", "org_id", "portal_id", "routes", ...Object.keys(data)].sort());
    expect(receiver.keys.at(-1)).toBe(EVENT_KEY);
  });

  it("sends each event once when two relays run at the same time", async () => {
    const { orgId, portalId } = await createOrg();
    const ids = await recordUploads(orgId, portalId, 30);
    // A slow event API keeps each relay's claim open long enough for the other to run beside it.
    // The second relay skips the rows the first holds.
    receiver.setDelay(150);

    const drain = async () => {
      let sent = 0;
      for (;;) {
        const r = await dispatchPendingEvents({ orgId, limit: 4 });
        expect(r.failed).toBe(0);
        if (r.sent === 0) return sent;
        sent += r.sent;
      }
    };
    const [a, b] = await Promise.all([drain(), drain()]);

    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect(a + b).toBe(30);
    const received = receivedFor(orgId).map((e) => e.id);
    expect(received).toHaveLength(30);
    expect([...received].sort()).toEqual([...ids].sort());
    expect(await db.event.count({ where: { orgId, dispatchedAt: null } })).toBe(0);
  });

  it("hands over 50 events in one send and marks each sent once, in one statement", async () => {
    const { orgId, portalId } = await createOrg();
    const ids = await recordUploads(orgId, portalId, 50);
    const sends: string[][] = [];
    const send = async (events: { id: string }[]) => {
      sends.push(events.map((e) => e.id));
    };
    expect(await dispatchPendingEvents({ orgId, limit: 100, send })).toEqual({ sent: 50, failed: 0 });
    // One call of the sender with the whole batch, oldest first (events of one millisecond by id).
    const oldestFirst = await db.event.findMany({ where: { orgId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
    expect(oldestFirst.map((e) => e.id).sort()).toEqual([...ids].sort());
    expect(sends).toEqual([oldestFirst.map((e) => e.id)]);
    const rows = await db.event.findMany({ where: { orgId }, select: { dispatchedAt: true, dispatchLeaseUntil: true, dispatchAttempts: true } });
    expect(rows).toHaveLength(50);
    // Marked by one statement: one dispatch time for the batch, the lease released.
    expect(new Set(rows.map((r) => r.dispatchedAt?.getTime())).size).toBe(1);
    expect(rows.every((r) => r.dispatchedAt !== null && r.dispatchLeaseUntil === null && r.dispatchAttempts === 0)).toBe(true);
    // Nothing is left to send: a second run hands over nothing.
    expect(await dispatchPendingEvents({ orgId, limit: 100, send })).toEqual({ sent: 0, failed: 0 });
    expect(sends).toHaveLength(1);
  });

  it("records a failed send on every event of the batch and releases them for the next run", async () => {
    const { orgId, portalId } = await createOrg();
    for (let i = 0; i < 5; i++) await db.$transaction((tx) => recordEvent(tx, { orgId, portalId, type: "file.uploaded", data: fileUploaded() }));
    const failing = () => Promise.reject(new Error("event API down"));
    expect(await dispatchPendingEvents({ orgId, send: failing })).toEqual({ sent: 0, failed: 5 });
    const rows = await db.event.findMany({
      where: { orgId },
      select: { dispatchedAt: true, dispatchLeaseUntil: true, dispatchAttempts: true, lastDispatchError: true },
    });
    expect(
      rows.every((r) => r.dispatchedAt === null && r.dispatchLeaseUntil === null && r.dispatchAttempts === 1 && r.lastDispatchError === "event API down"),
    ).toBe(true);
    const sent: string[] = [];
    expect(await dispatchPendingEvents({ orgId, send: async (events) => void sent.push(...events.map((e) => e.id)) })).toEqual({ sent: 5, failed: 0 });
    expect(sent).toHaveLength(5);
  });

  it("hands over oldest first", async () => {
    const { orgId } = await createOrg();
    const ids: string[] = [];
    for (const title of ["first", "second", "third"]) {
      const { id } = await db.$transaction((tx) =>
        recordEvent(tx, {
          orgId,
          type: "task.created",
          data: { task_id: randomUUID(), title, action_type: "General", due_date: null, status: "Open" },
        }),
      );
      ids.push(id);
    }
    expect(await dispatchPendingEvents({ orgId, limit: 2 })).toEqual({ sent: 2, failed: 0 });
    expect(receivedFor(orgId).map((e) => e.id)).toEqual(ids.slice(0, 2));
  });

  it("hands over a payload that validates against its schema", async () => {
    const { orgId, portalId } = await createOrg();
    const fileId = randomUUID();
    const data: EventData<"task.completed"> = {
      task_id: randomUUID(),
      action_type: "File Request",
      status: "Done",
      attached_files: [{ file_id: fileId, name: "w2.pdf" }],
      file_id: fileId,
    };
    const { id } = await db.$transaction((tx) => recordEvent(tx, { orgId, portalId, type: "task.completed", data }));

    await dispatchPendingEvents({ orgId });

    const row = await db.event.findUniqueOrThrow({ where: { id } });
    expect(eventDataSchemas["task.completed"].parse(row.data)).toEqual(data);
    const received = receivedFor(orgId);
    expect(received).toHaveLength(1);
    const parsed = relayedEventSchemas["task.completed"].safeParse(received[0]?.data);
    expect(parsed.error).toBeUndefined();
    expect(parsed.data).toEqual({ event_id: id, org_id: orgId, portal_id: portalId, ...data, routes: { webhooks: false, partner: false, clients: false } });
  });

  it("routes each event to the consumers it has when handed over: a subscribed enabled webhook, a connected partner, a client of the portal", async () => {
    const { orgId, portalId } = await createOrg();
    const webhook = (events: string[], enabled = true) =>
      db.webhook.create({ data: { orgId, url: "https://hooks.example.com/in", events, secretEncrypted: "unused", enabled } });
    await webhook(["file.uploaded"]);
    await webhook(["guest.invited"], false);
    const record = (type: "file.uploaded" | "guest.invited") =>
      db.$transaction((tx) =>
        recordEvent(
          tx,
          type === "file.uploaded"
            ? { orgId, portalId, type, data: fileUploaded() }
            : { orgId, portalId, type, data: { guest_email: "g@example.com", guest_name: null, invited_by: null } },
        ),
      );
    const uploaded = await record("file.uploaded");
    const invited = await record("guest.invited");
    await dispatchPendingEvents({ orgId });
    await connectTestPartner(orgId);
    const later = await record("guest.invited");
    await dispatchPendingEvents({ orgId });
    // A guest who has not accepted is no client yet; one who accepted is.
    const guest = await createTestGuest({ orgId, portalId });
    await db.portalGuest.updateMany({ where: { portalId, userId: guest.id }, data: { acceptedAt: null } });
    const beforeAccepting = await record("guest.invited");
    await dispatchPendingEvents({ orgId });
    await db.portalGuest.updateMany({ where: { portalId, userId: guest.id }, data: { acceptedAt: new Date() } });
    const withClient = await record("guest.invited");
    await dispatchPendingEvents({ orgId });

    const routes = new Map(receivedFor(orgId).map((e) => [e.id, e.data["routes"]]));
    // Subscribed and enabled (its delivery made at hand-off, so nothing left for the fan-out);
    // subscribed but disabled; the partner connected before the hand-off.
    expect(routes.get(uploaded.id)).toEqual({ webhooks: false, partner: false, clients: false });
    expect(routes.get(invited.id)).toEqual({ webhooks: false, partner: false, clients: false });
    expect(routes.get(later.id)).toEqual({ webhooks: false, partner: true, clients: false });
    expect(routes.get(beforeAccepting.id)).toEqual({ webhooks: false, partner: true, clients: false });
    expect(routes.get(withClient.id)).toEqual({ webhooks: false, partner: true, clients: true });
  });

  it("makes the webhook deliveries at hand-off and starts them in the same send; a hand-off repeated after a failed send starts the same ones", async () => {
    const { orgId, portalId } = await createOrg();
    const hook = (events: string[], options: { enabled?: boolean; createdAt?: Date } = {}) =>
      db.webhook.create({
        data: { orgId, url: "https://hooks.example.com/in", events, secretEncrypted: "unused", enabled: options.enabled ?? true, createdAt: options.createdAt },
      });
    const first = await hook(["file.uploaded"], { createdAt: new Date(Date.now() - 60_000) });
    const second = await hook(["file.uploaded", "guest.invited"], { createdAt: new Date(Date.now() - 60_000) });
    await hook(["file.uploaded"], { enabled: false });
    await hook(["guest.invited"]);
    const [uploadId] = await recordUploads(orgId, portalId, 1);
    // Made after the event: not one of its webhooks (D21).
    const late = await hook(["file.uploaded"], { createdAt: new Date(Date.now() + 1000) });

    // The first hand-off fails after the deliveries were made: the event stays pending.
    receiver.setRefusing(true);
    expect(await dispatchPendingEvents({ orgId })).toEqual({ sent: 0, failed: 1 });
    const made = await db.webhookDelivery.findMany({ where: { eventId: uploadId }, orderBy: { webhookId: "asc" } });
    expect(made.map((d) => d.webhookId).sort()).toEqual([first.id, second.id].sort());
    expect(made.every((d) => d.status === "pending" && d.attemptCount === 0 && d.eventType === "file.uploaded")).toBe(true);
    expect(made.map((d) => d.webhookId)).not.toContain(late.id);

    receiver.setRefusing(false);
    expect(await dispatchPendingEvents({ orgId })).toEqual({ sent: 1, failed: 0 });
    const starts = receiver.events.filter((e) => e.name === "webhook/delivery.requested" && made.some((d) => d.id === e.data["delivery_id"]));
    expect(starts.map((e) => e.id).sort()).toEqual(made.map((d) => `webhook-delivery-${d.id}-1`).sort());
    expect(starts.map((e) => e.data)).toEqual(expect.arrayContaining(made.map((d) => ({ delivery_id: d.id, webhook_id: d.webhookId, first_attempt: 1 }))));
    // The same two rows, not two more.
    expect(await db.webhookDelivery.count({ where: { eventId: uploadId } })).toBe(2);

    // A delivery already attempted is never started again by a later hand-off of its event.
    await db.webhookDelivery.update({ where: { id: made[0]!.id }, data: { attemptCount: 1 } });
    await db.event.update({ where: { id: uploadId }, data: { dispatchedAt: null } });
    const before = receiver.events.length;
    await dispatchPendingEvents({ orgId });
    const again = receiver.events.slice(before).filter((e) => e.name === "webhook/delivery.requested");
    expect(again.map((e) => e.data["delivery_id"])).toEqual([made[1]!.id]);
  });

  it("claims a batch with one probe of the deliveries per event and webhook, not one per pair of events", async () => {
    const { orgId, portalId } = await createOrg();
    await db.webhook.create({
      data: { orgId, url: "https://hooks.example.com/in", events: ["file.uploaded"], secretEncrypted: "unused", createdAt: new Date(Date.now() - 60_000) },
    });
    const events = 100;
    await recordUploads(orgId, portalId, events);
    const { sql: text, parameters } = claimOrg({ leaseUntil: new Date(Date.now() + 60_000), limit: events, orgId }).compile();
    const values = parameters.map((v) => (v instanceof Date ? v.toISOString() : v));
    type PlanNode = { "Relation Name"?: string; "Actual Loops": number; "Actual Rows": number; Plans?: PlanNode[] };
    let plan: PlanNode | undefined;
    // Run for its plan only: the claim and the deliveries it makes are rolled back.
    await expect(
      db.$transaction(async (tx) => {
        const [row] = await tx.$queryRawUnsafe<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, ...values);
        plan = row!["QUERY PLAN"][0].Plan;
        throw new Rollback();
      }),
    ).rejects.toThrow(Rollback);
    const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
    const all = nodes(plan!);
    expect(all[0]!["Actual Rows"]).toBe(events);
    // Every read of WebhookDelivery in the plan (the probe for an earlier hand-off's deliveries):
    // once per event here, where a subquery per claimed row made it once per pair of events.
    const probes = all.filter((n) => n["Relation Name"] === "WebhookDelivery").reduce((sum, n) => sum + n["Actual Loops"], 0);
    expect(probes).toBeGreaterThan(0);
    expect(probes).toBeLessThanOrEqual(2 * events);
    expect(await db.webhookDelivery.count({ where: { webhook: { orgId } } })).toBe(0);
  });
});

describe("recordEvent", () => {
  it("rejects data that does not match the event's schema, rolling back the caller's change", async () => {
    const { orgId, portalId } = await createOrg();
    const bad = { ...fileUploaded(), size: -1 };
    await expect(
      db.$transaction(async (tx) => {
        await tx.portal.update({ where: { id: portalId }, data: { name: "renamed" } });
        await recordEvent(tx, { orgId, portalId, type: "file.uploaded", data: bad });
      }),
    ).rejects.toThrow();
    expect(await db.event.count({ where: { orgId } })).toBe(0);
    expect((await db.portal.findUniqueOrThrow({ where: { id: portalId } })).name).toBe("Events portal");
  });
});
