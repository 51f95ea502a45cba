import { events, inngest } from "@/inngest/client";
import { reminderPoints } from "@/lib/tasks/reminder-schedule";
import { sendTaskReminder } from "@/lib/tasks/send-reminder";

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

    const plan = await step.run("plan", () => reminderPoints(new Date(dueDate), new Date()));
    const sent: number[] = [];
    for (const point of plan) {
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
