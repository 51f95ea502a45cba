import { ActionForm, type SettingsState } from "@/components/settings/action-form";
import { ACTION_LABELS } from "@/components/tasks/labels";
import { Badge } from "@/components/ui/badge";
import type { taskActionTypes } from "@/lib/events/task-names";
import type { FormAction } from "@/lib/web/form-state";
import { Day } from "@/components/ui/time";

const EVERY = { monthly: "Every month", quarterly: "Every 3 months", yearly: "Every year" } as const;
type Frequency = keyof typeof EVERY;
type ActionType = (typeof taskActionTypes)[number];

const every = (frequency: Frequency, day: number) => `${EVERY[frequency]} on day ${day}`;

/** A portal's recurring requests: how often, the next occurrence, and pause / resume / end. */
export function RecurringList({
  portalId,
  rows,
  change,
}: {
  portalId: string;
  rows: {
    id: string;
    title: string;
    actionType: ActionType;
    frequency: Frequency;
    dayOfMonth: number;
    status: string;
    nextOccurrence: Date | null;
    occurrences: number;
  }[];
  change: FormAction<SettingsState>;
}) {
  if (rows.length === 0)
    return <p className="text-sm text-fg-muted">No recurring requests. A recurring request sends the same task every month, quarter or year.</p>;
  const button = (id: string, value: "pause" | "resume" | "end", label: string, title: string) => (
    <ActionForm
      action={change}
      submitLabel={label}
      variant="secondary"
      inline
      label={`${label}: ${title}`}
      confirm={
        value === "end"
          ? { title: "End this recurring request?", description: "No more tasks will be sent. Tasks already sent stay.", confirmLabel: "End" }
          : undefined
      }
    >
      <input type="hidden" name="portalId" value={portalId} />
      <input type="hidden" name="recurringRequestId" value={id} />
      <input type="hidden" name="change" value={value} />
    </ActionForm>
  );
  return (
    <ul className="divide-y divide-line rounded-lg border border-line bg-surface" data-testid="recurring-list">
      {rows.map((r) => (
        <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3" data-testid="recurring-row">
          <div className="min-w-0 space-y-1">
            <p className="font-medium break-words">{r.title}</p>
            <p className="flex flex-wrap gap-x-3 text-xs text-fg-muted">
              <span>{ACTION_LABELS[r.actionType]}</span>
              <span>{every(r.frequency, r.dayOfMonth)}</span>
              <span data-testid="next-occurrence">
                {r.nextOccurrence ? (
                  <>
                    Next: <Day value={r.nextOccurrence} />
                  </>
                ) : (
                  "No next occurrence"
                )}
              </span>
              <span>{r.occurrences === 1 ? "1 sent" : `${r.occurrences} sent`}</span>
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {r.status === "active" ? null : <Badge tone={r.status === "paused" ? "warning" : "neutral"}>{r.status === "paused" ? "Paused" : "Ended"}</Badge>}
            {r.status === "active" ? button(r.id, "pause", "Pause", r.title) : null}
            {r.status === "paused" ? button(r.id, "resume", "Resume", r.title) : null}
            {r.status !== "ended" ? button(r.id, "end", "End", r.title) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** A template's request list: what every portal created from it gets. */
export function TemplateRequestList({
  portalId,
  rows,
  remove,
}: {
  portalId: string;
  rows: {
    id: string;
    spec: { title: string; action_type: ActionType; due: { kind: string; days?: number } };
    frequency: Frequency | null;
    dayOfMonth: number | null;
  }[];
  remove: FormAction<SettingsState>;
}) {
  if (rows.length === 0) return <p className="text-sm text-fg-muted">No requests yet. Portals created from this template get each request here as a task.</p>;
  return (
    <ul className="divide-y divide-line rounded-lg border border-line bg-surface" data-testid="template-request-list">
      {rows.map((r) => (
        <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3" data-testid="template-request-row">
          <div className="min-w-0 space-y-1">
            <p className="font-medium break-words">{r.spec.title}</p>
            <p className="flex flex-wrap gap-x-3 text-xs text-fg-muted">
              <span>{ACTION_LABELS[r.spec.action_type]}</span>
              <span>{r.frequency && r.dayOfMonth ? every(r.frequency, r.dayOfMonth) : "Once, when the portal is created"}</span>
              {r.spec.due.kind === "relative" ? <span>Due {r.spec.due.days} days after</span> : null}
            </p>
          </div>
          <ActionForm action={remove} submitLabel="Remove" variant="secondary" inline label={`Remove: ${r.spec.title}`}>
            <input type="hidden" name="portalId" value={portalId} />
            <input type="hidden" name="templateRequestId" value={r.id} />
          </ActionForm>
        </li>
      ))}
    </ul>
  );
}
