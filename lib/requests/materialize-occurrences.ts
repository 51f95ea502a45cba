import type { Viewer } from "@/lib/access/viewer";
import { db, runInTransaction } from "@/lib/db";
import { forbidden, isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { makeRequestTask, portalGuestIds } from "./make-request-task";
import { parseRequestSpec } from "./parse-spec";
import { currentPeriod, occursAt } from "./recurrence";

const ACTIVE = { status: "active", portal: { deletedAt: null, isTemplate: false } } as const;

/** The organizations with an active recurring request (the recurring job's fan-out). */
export async function organizationsWithSchedules(): Promise<string[]> {
  const rows = await db.recurringRequest.findMany({ where: ACTIVE, select: { orgId: true }, distinct: ["orgId"] });
  return rows.map((r) => r.orgId);
}

/**
 * Makes the task of every active schedule's period due at `now` that has none yet (the system
 * only: the recurring job passes the real time, tests their own clock). Each
 * occurrence is claimed by inserting its row, unique on (portal, schedule, period), in the
 * transaction that makes its task through createTask: however many runs do this at once, one
 * insert wins and the others find the row and make nothing. Only the period due now is made
 * (never earlier ones): a job that was down for less than a period catches up; a schedule
 * resumed after a pause starts again with the period then due. A request the task path refuses
 * (an AppError, e.g. its document is gone) records the error on the occurrence instead of a task.
 */
export async function materializeDueOccurrences({ viewer, now = new Date() }: { viewer: Viewer; now?: Date }) {
  if (viewer.kind !== "system") throw forbidden("Recurring requests are made by the recurring job");
  const schedules = await db.recurringRequest.findMany({ where: { orgId: viewer.orgId, ...ACTIVE } });
  let created = 0;
  for (const schedule of schedules) {
    const period = currentPeriod(schedule, now);
    if (!period) continue;
    const done = await db.recurringOccurrence.findUnique({
      where: { portalId_scheduleId_period: { portalId: schedule.portalId, scheduleId: schedule.id, period } },
      select: { id: true },
    });
    if (done) continue;
    const at = occursAt(schedule, period);
    const made = await runInTransaction(
      async (tx) => {
        const claimed = await tx.$queryRaw<{ id: string }[]>`
        INSERT INTO "RecurringOccurrence" ("id", "scheduleId", "portalId", "period", "occursAt", "createdAt")
        SELECT gen_random_uuid(), r."id", r."portalId", ${period}, ${at}::timestamp(3), now()
        FROM "RecurringRequest" r WHERE r."id" = ${schedule.id}::uuid AND r."status" = 'active'
        ON CONFLICT ("portalId", "scheduleId", "period") DO NOTHING RETURNING "id"`;
        const occurrence = claimed[0];
        if (!occurrence) return false;
        const spec = parseRequestSpec(schedule.spec);
        const guestIds = await portalGuestIds(viewer.orgId, schedule.portalId);
        try {
          const { taskId } = await runInTransaction(() => makeRequestTask({ viewer, portalId: schedule.portalId, spec, anchor: at, guestIds }));
          await tx.recurringOccurrence.update({ where: { id: occurrence.id }, data: { taskId } });
        } catch (error) {
          if (!isAppError(error)) throw error;
          log().warn({ scheduleId: schedule.id, period, error: error.message }, "recurring request refused");
          await tx.recurringOccurrence.update({ where: { id: occurrence.id }, data: { error: error.message.slice(0, 500) } });
        }
        return true;
      },
      { timeout: 30_000 },
    );
    if (made) created++;
  }
  return { created };
}
