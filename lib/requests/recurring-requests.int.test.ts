import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getUserViewer, systemViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { isAppError } from "@/lib/errors";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { materializeDueOccurrences } from "./materialize-occurrences";
import { changeRecurringRequest, createRecurringRequest, listRecurringRequests } from "./recurring-requests";

// Recurring requests against the real database, on a clock the test controls: each period's task
// is made once, however many runs (two app instances' cron runs at once) try.

async function context() {
  const org = await createTestOrg({ plan: "business" });
  const member = await createTestUser({ orgId: org.id, role: "member" });
  const portal = await createTestPortal({ orgId: org.id, name: "Monthly client" });
  const guest = await createTestGuest({ orgId: org.id, portalId: portal.id });
  return { org, portal, guest, viewer: await getUserViewer(member.id, org.id), system: systemViewer(org.id) };
}

const DAY = 86_400_000;

describe("recurring requests", () => {
  it("make a monthly request's 14 occurrences over 14 simulated months once each, two runs racing at every tick", async () => {
    const { org, portal, guest, viewer, system } = await context();
    const start = new Date("2027-01-03T09:00:00Z");
    const { startPeriod } = await createRecurringRequest({
      viewer,
      portalId: portal.id,
      spec: { title: "Monthly bank statements", action_type: "File Request", due: { kind: "relative", days: 10 }, send_reminder: true },
      recurrence: { frequency: "monthly", day_of_month: 5 },
      now: start,
    });
    expect(startPeriod).toBe("2027-01");

    // Every 12 hours from 3 Jan 2027 to 3 Mar 2028 (14 occurrence days: Jan 2027 .. Feb 2028), two runs at once.
    let made = 0;
    for (let now = start.getTime(); now < Date.parse("2028-03-03T00:00:00Z"); now += DAY / 2) {
      const runs = await Promise.all([
        materializeDueOccurrences({ viewer: system, now: new Date(now) }),
        materializeDueOccurrences({ viewer: system, now: new Date(now) }),
      ]);
      made += runs[0].created + runs[1].created;
    }
    expect(made).toBe(14);
    const occurrences = await db.recurringOccurrence.findMany({ where: { portalId: portal.id }, orderBy: { period: "asc" } });
    expect(occurrences.map((o) => o.period)).toEqual([...Array.from({ length: 12 }, (_, i) => `2027-${String(i + 1).padStart(2, "0")}`), "2028-01", "2028-02"]);
    const tasks = await db.task.findMany({ where: { portalId: portal.id }, include: { assignees: true }, orderBy: { dueDate: "asc" } });
    expect(tasks).toHaveLength(14);
    expect(new Set(occurrences.map((o) => o.taskId))).toEqual(new Set(tasks.map((t) => t.id)));
    // Due 10 days after each occurrence (the 5th), at the end of that day.
    expect(tasks[0]!.dueDate?.toISOString()).toBe("2027-01-15T23:59:59.000Z");
    expect(tasks[13]!.dueDate?.toISOString()).toBe("2028-02-15T23:59:59.000Z");
    expect(tasks.every((t) => t.sendReminder && t.title === "Monthly bank statements" && t.assignees[0]?.userId === guest.id)).toBe(true);
    expect(await db.event.count({ where: { orgId: org.id, type: "task.created" } })).toBe(14);
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "task.created" } })).toBe(14);
  }, 120_000);

  it("pause, resume and end from the web's functions; the portal shows the next occurrence", async () => {
    const { portal, viewer, system } = await context();
    const now = new Date("2027-03-20T10:00:00Z");
    const { recurringRequestId } = await createRecurringRequest({
      viewer,
      portalId: portal.id,
      spec: { title: "Quarterly VAT" },
      recurrence: { frequency: "quarterly", day_of_month: 31 },
      now,
    });
    let [listed] = await listRecurringRequests({ viewer, portalId: portal.id, now });
    // 31 March is still ahead: the first occurrence is this month's last day.
    expect(listed).toMatchObject({ id: recurringRequestId, title: "Quarterly VAT", status: "active", occurrences: 0 });
    expect(listed!.nextOccurrence?.toISOString()).toBe("2027-03-31T00:00:00.000Z");

    expect(await changeRecurringRequest({ viewer, recurringRequestId, change: "pause" })).toEqual({ status: "paused" });
    expect(await materializeDueOccurrences({ viewer: system, now: new Date("2027-04-02T00:00:00Z") })).toEqual({ created: 0 });
    [listed] = await listRecurringRequests({ viewer, portalId: portal.id, now });
    expect(listed).toMatchObject({ status: "paused", nextOccurrence: null });

    expect(await changeRecurringRequest({ viewer, recurringRequestId, change: "resume" })).toEqual({ status: "active" });
    expect(await materializeDueOccurrences({ viewer: system, now: new Date("2027-07-01T00:00:00Z") })).toEqual({ created: 1 });
    const [occurrence] = await db.recurringOccurrence.findMany({ where: { scheduleId: recurringRequestId } });
    expect(occurrence?.period).toBe("2027-06");
    [listed] = await listRecurringRequests({ viewer, portalId: portal.id, now: new Date("2027-07-01T00:00:00Z") });
    expect(listed!.nextOccurrence?.toISOString()).toBe("2027-09-30T00:00:00.000Z");

    expect(await changeRecurringRequest({ viewer, recurringRequestId, change: "end" })).toEqual({ status: "ended" });
    expect(await materializeDueOccurrences({ viewer: system, now: new Date("2027-10-01T00:00:00Z") })).toEqual({ created: 0 });
    const refused = await changeRecurringRequest({ viewer, recurringRequestId, change: "resume" }).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.code).toBe("invalid_request");
    expect(await db.auditLog.findMany({ where: { targetId: recurringRequestId }, select: { action: true }, orderBy: { createdAt: "asc" } })).toEqual(
      ["created", "paused", "resumed", "ended"].map((a) => ({ action: `recurring_request.${a}` })),
    );
  });

  it("refuse another organization's portal and schedule (404)", async () => {
    const { viewer, portal } = await context();
    const other = await context();
    const foreign = await createRecurringRequest({
      viewer: other.viewer,
      portalId: other.portal.id,
      spec: { title: "x" },
      recurrence: { frequency: "yearly", day_of_month: 1 },
    });
    for (const attempt of [
      () => createRecurringRequest({ viewer, portalId: other.portal.id, spec: { title: "x" }, recurrence: { frequency: "yearly", day_of_month: 1 } }),
      () => changeRecurringRequest({ viewer, recurringRequestId: foreign.recurringRequestId, change: "pause" }),
      () => changeRecurringRequest({ viewer, recurringRequestId: randomUUID(), change: "pause" }),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(isAppError(error) && error.code).toBe("not_found");
    }
    expect(await listRecurringRequests({ viewer, portalId: portal.id })).toEqual([]);
  });
});
