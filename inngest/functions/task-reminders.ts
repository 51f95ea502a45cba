import { events, inngest } from "@/inngest/client";
import { env } from "@/lib/env";
import { planReminders } from "@/lib/tasks/reminder-schedule";
import { reminderStopReason, sendTaskReminder } from "@/lib/tasks/send-reminder";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A task's reminder run (D18). Every change of a task's reminder schedule (created with
 * reminders, due date or send_reminder changed, completed, reopened, deleted) records
 * `task.reminders_changed` in the transaction of the change; the outbox hands it over here.
 * The event cancels the task's running run (`cancelOn`) and, when the task is Open with reminders
 * and a due date, starts a new one: a changed due date reschedules, anything else just stops.
 *
 * The run plans its points once (a step, so replays keep the plan even after a point has passed),
 * then sleeps until each point and sends it; each send reads the task again and ends the run when
 * the schedule no longer applies, so a late or lost cancellation cannot send a stale reminder.
 * No sleep is longer than INNGEST_MAX_SLEEP_DAYS (default 7, Inngest's free-plan limit): a point
 * further away is reached through intermediate wake-ups (`wait-<label>-<n>`), each followed by a
 * check of the task (`check-<label>-<n>`) that ends the run as early as a send would.
 */
export const taskReminders = inngest.createFunction(
  {
    id: "task-reminders",
    triggers: [events["task.reminders_changed"]],
    cancelOn: [{ event: "task.reminders_changed", if: "async.data.task_id == event.data.task_id" }],
    retries: 5,
  },
  async ({ event, step }) => {
    const { task_id: taskId, org_id: orgId, due_date: dueDate, send_reminder, status, deleted } = event.data;
    if (!send_reminder || status !== "Open" || deleted || dueDate === null) return { sent: [], stopped: "no_reminders" as const };

    const plan = await step.run("plan", () => planReminders(new Date(dueDate), new Date(), env().INNGEST_MAX_SLEEP_DAYS * DAY_MS));
    const sent: number[] = [];
    let wakes = 0;
    for (const point of plan) {
      for (const [i, wake] of point.wakes.entries()) {
        if (++wakes > env().INNGEST_MAX_WAKES_PER_RUN) {
          // The event id makes a repeated step start one continuation only.
          await step.sendEvent("continue", { id: `${event.data.event_id}-continued-${wake}`, name: "task.reminders_changed", data: event.data });
          return { sent, stopped: "continued" as const };
        }
        await step.sleepUntil(`wait-${point.label}-${i + 1}`, wake);
        const stop = await step.run(`check-${point.label}-${i + 1}`, () => reminderStopReason({ orgId, taskId, dueDate }));
        if (stop) return { sent, stopped: stop };
      }
      await step.sleepUntil(`sleep-until-${point.label}`, point.at);
      const result = await step.run(`remind-${point.label}`, () =>
        sendTaskReminder({ orgId, taskId, dueDate, offsetDays: point.offsetDays, scheduledFor: point.at }),
      );
      if (result.outcome === "stopped") return { sent, stopped: result.reason };
      sent.push(point.offsetDays);
    }
    return { sent, stopped: null };
  },
);
