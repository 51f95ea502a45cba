import { escapeHtml } from "@/lib/email/escape";

export interface TaskCompletedEmailInput {
  portalName: string;
  taskTitle: string;
  completedBy: string | null;
  portalUrl: string;
}

export function taskCompletedEmail(input: TaskCompletedEmailInput) {
  const by = input.completedBy ? ` by ${input.completedBy}` : "";
  return {
    subject: `Task completed in ${input.portalName}: ${input.taskTitle}`,
    text: `The task "${input.taskTitle}" in the portal "${input.portalName}" was completed${by}.\n\nOpen the portal: ${input.portalUrl}\n\nYou get this email because task notifications are on in your settings.`,
    html:
      `<p>The task <strong>${escapeHtml(input.taskTitle)}</strong> in the portal ${escapeHtml(input.portalName)} was completed${escapeHtml(by)}.</p>` +
      `<p><a href="${escapeHtml(input.portalUrl)}">Open the portal</a></p>` +
      `<p>You get this email because task notifications are on in your settings.</p>`,
  };
}
