import { escapeHtml } from "@/lib/email/escape";

export interface NoticeLine {
  title: string;
  url: string;
  /** A short second part: "in Payroll 2026 · by Alice", "due 30 Nov 2026". */
  detail: string;
}

const WHAT = {
  uploads: { one: "new file", many: "new files", lead: "These files were uploaded:", why: "file notifications" },
  requests: { one: "new request", many: "new requests", lead: "You have new requests:", why: "request notifications" },
  messages: { one: "new message", many: "new messages", lead: "You have new messages:", why: "message notifications" },
} as const;

/** Several notices of one kind as one email: a list of links with their detail. */
export function batchedNoticesEmail(input: { kind: keyof typeof WHAT; orgName: string; lines: NoticeLine[] }) {
  const w = WHAT[input.kind];
  const n = input.lines.length;
  const subject = input.kind === "requests" ? `${n} ${w.many} from ${input.orgName}` : `${n} ${w.many} in ${input.orgName}`;
  const footer = `You get this email because ${w.why} are on in your settings. Several within a minute come as one email.`;
  const text = [w.lead, "", ...input.lines.map((l) => `- ${l.title} (${l.detail})\n  ${l.url}`), "", footer].join("\n");
  const html =
    `<p>${escapeHtml(w.lead)}</p><ul>` +
    input.lines
      .map((l) => `<li><a href="${escapeHtml(l.url)}">${escapeHtml(l.title)}</a> <span style="color:#475569">(${escapeHtml(l.detail)})</span></li>`)
      .join("") +
    `</ul><p style="color:#475569;font-size:13px">${escapeHtml(footer)}</p>`;
  return { subject, text, html };
}
