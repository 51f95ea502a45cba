import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { recurringRequests } from "@/inngest/functions/recurring-requests";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { createRecurringRequest } from "@/lib/requests/recurring-requests";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";

// The hourly recurring job: the period due now gets its task once, however often the job runs.

describe("recurring-requests", () => {
  it("makes the due period's task once across runs", async () => {
    const org = await createTestOrg();
    const member = await createTestUser({ orgId: org.id, role: "member" });
    const portal = await createTestPortal({ orgId: org.id });
    const guest = await createTestGuest({ orgId: org.id, portalId: portal.id });
    const viewer = await getUserViewer(member.id, org.id);
    // Made at the start of this month with day 1: this month's occurrence (today or earlier) is due.
    const now = new Date();
    const { recurringRequestId } = await createRecurringRequest({
      viewer,
      portalId: portal.id,
      spec: { title: "Monthly payroll", action_type: "File Request" },
      recurrence: { frequency: "monthly", day_of_month: 1 },
      now: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    });

    const first = await new InngestTestEngine({ function: recurringRequests, events: [{ name: "inngest/scheduled.timer", data: {} }] }).execute();
    expect((first.result as { created: number }).created).toBeGreaterThanOrEqual(1);
    const again = await new InngestTestEngine({ function: recurringRequests, events: [{ name: "inngest/scheduled.timer", data: {} }] }).execute();
    expect(again.error).toBeUndefined();

    const tasks = await db.task.findMany({ where: { portalId: portal.id }, include: { assignees: true } });
    expect(tasks.map((t) => [t.title, t.assignees.map((a) => a.userId)])).toEqual([["Monthly payroll", [guest.id]]]);
    const [occurrence] = await db.recurringOccurrence.findMany({ where: { scheduleId: recurringRequestId } });
    expect(occurrence).toMatchObject({ portalId: portal.id, taskId: tasks[0]!.id, period: now.toISOString().slice(0, 7) });
  });
});
