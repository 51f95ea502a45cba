import { escapeHtml } from "@/lib/email/escape";
import { formatDateTime } from "@/lib/time/format";

export interface ReminderEmailInput {
  taskTitle: string;
  taskDescription: string;
  portalName: string;
  dueDate: Date;
  /** Days from the due date: -14, -7, -3, 0 or 7. */
  offsetDays: number;
  portalUrl: string;
  /** The recipient's zone (lib/time/settings.ts). */
  timeZone: string;
}

function when(offsetDays: number): string {
  if (offsetDays === 0) return "is due today";
  if (offsetDays < 0) return `is due in ${-offsetDays} days`;
  return `was due ${offsetDays} days ago`;
}

/** A task reminder for a portal guest (D18): the task, its due date and the portal link. */
export function reminderEmail(input: ReminderEmailInput) {
  const due = formatDateTime(input.dueDate, input.timeZone);
  const subject = `Reminder: "${input.taskTitle}" ${when(input.offsetDays)}`;
  const description = input.taskDescription.trim();
  const text = [
    `The task "${input.taskTitle}" in the portal "${input.portalName}" ${when(input.offsetDays)}.`,
    "",
    `Due: ${due}`,
    ...(description ? ["", description] : []),
    "",
    `Open the portal: ${input.portalUrl}`,
  ].join("\n");
  const html =
    `<p>The task <strong>${escapeHtml(input.taskTitle)}</strong> in the portal <strong>${escapeHtml(input.portalName)}</strong> ${when(input.offsetDays)}.</p>` +
    `<p>Due: ${escapeHtml(due)}</p>` +
    (description ? `<p>${escapeHtml(description)}</p>` : "") +
    `<p><a href="${escapeHtml(input.portalUrl)}">Open the portal</a></p>`;
  return { subject, text, html };
}
