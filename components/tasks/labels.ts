import type { taskActionTypes } from "@/lib/events/task-names";

// Words and numbers shared by the tasks tab's server pages and client dialogs (a plain module:
// what a "use client" module exports reaches server components only as client references).

export const ACTION_LABELS: Record<(typeof taskActionTypes)[number], string> = {
  General: "General",
  "Question?": "Question",
  "File Request": "File Request",
  "Sign Document": "Sign Document",
  "Fill Form": "Fill Form",
};

export const ACTION_HINTS: Record<(typeof taskActionTypes)[number], string> = {
  General: "Something to do, completed by hand.",
  "Question?": "A question the client answers in the portal.",
  "File Request": "Files the client uploads; their upload completes the task.",
  "Sign Document": "A PDF of this portal the client signs.",
  "Fill Form": "A form with the fields you build below.",
};

export const REMINDER_HINT =
  "Emails the assigned guests (all of the portal's guests when no guest is assigned) 14, 7 and 3 days before, on the due date and 7 days after, while the task is open";

export type FieldKind = "text" | "textarea" | "number" | "date" | "select" | "checkbox";

export const KIND_LABELS: Record<FieldKind, string> = {
  text: "Text",
  textarea: "Long text",
  number: "Number",
  date: "Date",
  select: "Single choice",
  checkbox: "Yes / no",
};

const BOX = { width: 0.35, height: 0.1 };
const MARGIN = 0.05;
export const POSITIONS = {
  "bottom-right": { x: 1 - MARGIN - BOX.width, y: 1 - MARGIN - BOX.height },
  "bottom-left": { x: MARGIN, y: 1 - MARGIN - BOX.height },
  "top-right": { x: 1 - MARGIN - BOX.width, y: MARGIN },
  "top-left": { x: MARGIN, y: MARGIN },
} as const;
export type Position = keyof typeof POSITIONS;

export function placementJson(mode: "page" | "box", page: number, position: Position): string {
  if (mode === "page") return JSON.stringify({ signaturePage: true });
  return JSON.stringify({ page, ...POSITIONS[position], ...BOX });
}

/** Reads a stored placement back (for the detail view). */
export function describePlacement(placement: unknown): string {
  const p = placement as { signaturePage?: boolean; page?: number; x?: number; y?: number } | null;
  if (!p || p.signaturePage) return "On a signature page added at the end";
  const pos = Object.entries(POSITIONS).find(([, v]) => Math.abs(v.x - (p.x ?? -1)) < 0.001 && Math.abs(v.y - (p.y ?? -1)) < 0.001)?.[0];
  return `On page ${p.page}${pos ? `, ${pos.replace("-", " ")}` : ""}`;
}
