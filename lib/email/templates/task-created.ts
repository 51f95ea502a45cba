import { escapeHtml } from "@/lib/email/escape";
import { formatDate } from "@/lib/time/format";

const ASKS: Record<string, string> = {
  General: "asks you to do something",
  Question: "asks you a question",
  FileRequest: "asks you for files",
  SignDocument: "asks you to sign a document",
  FillForm: "asks you to fill in a form",
};

export interface TaskCreatedEmailInput {
  orgName: string;
  portalName: string;
  taskTitle: string;
  taskDescription: string;
  actionType: string;
  dueDate: Date | null;
  taskUrl: string;
  /** The recipient's zone (lib/time/settings.ts): the due date is the day it falls on there. */
  timeZone: string;
}

/** A client's new request: what the firm asks, by when, and the link straight to it. */
export function taskCreatedEmail(input: TaskCreatedEmailInput) {
  const asks = ASKS[input.actionType] ?? ASKS.General!;
  const due = input.dueDate ? `Due ${formatDate(input.dueDate, input.timeZone)}` : "No due date";
  const description = input.taskDescription.trim();
  const subject = `New request from ${input.orgName}: ${input.taskTitle}`;
  const text = [
    `${input.orgName} ${asks} in the portal "${input.portalName}":`,
    "",
    input.taskTitle,
    due,
    ...(description ? ["", description] : []),
    "",
    `Open the request: ${input.taskUrl}`,
    "",
    "You get this email because request notifications are on in your settings.",
  ].join("\n");
  const html =
    `<p>${escapeHtml(input.orgName)} ${escapeHtml(asks)} in the portal <strong>${escapeHtml(input.portalName)}</strong>:</p>` +
    `<p style="font-size:16px"><strong>${escapeHtml(input.taskTitle)}</strong><br><span style="color:#475569">${escapeHtml(due)}</span></p>` +
    (description ? `<p style="white-space:pre-line">${escapeHtml(description)}</p>` : "") +
    `<p><a href="${escapeHtml(input.taskUrl)}" style="display:inline-block;background:#0f172a;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Open the request</a></p>` +
    `<p style="color:#475569;font-size:13px">You get this email because request notifications are on in your settings.</p>`;
  return { subject, text, html, due };
}
