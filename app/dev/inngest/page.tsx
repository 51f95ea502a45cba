import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Card } from "@/components/ui/card";
import { devActivity, devInngestEnabled, type DevRun } from "@/inngest/dev-activity";

export const metadata: Metadata = { title: "Background jobs" };
export const dynamic = "force-dynamic";

const STATUS_STYLE: Record<string, string> = {
  Completed: "bg-success-tint text-success-strong",
  Failed: "bg-danger-tint text-danger-strong",
  Cancelled: "bg-track text-fg-2",
  Running: "bg-info-tint text-info",
  Queued: "bg-info-tint text-info",
};

const short = (fn: string) => fn.replace(/^client-portals-/, "");
const time = (iso: string) => iso.slice(11, 19);

function errorText(error: unknown): string {
  if (error && typeof error === "object" && "message" in error) return String((error as { message: unknown }).message);
  return JSON.stringify(error);
}

function RunRow({ run }: { run: DevRun }) {
  return (
    <li className="border-t border-line-soft py-3 first:border-t-0" data-testid="run">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="font-medium">{short(run.functionId)}</span>
        <span className={`rounded px-2 py-0.5 text-xs ${STATUS_STYLE[run.status] ?? ""}`}>{run.status}</span>
        <span className="text-xs text-fg-subtle">
          {run.event.name} · started {time(run.startedAt)}
          {run.endedAt ? ` · ended ${time(run.endedAt)}` : ""}
        </span>
      </div>
      {run.steps.length > 0 ? (
        <ol className="mt-1 flex flex-wrap gap-1 text-xs">
          {run.steps.map((s, i) => (
            <li
              key={`${s.id}-${i}`}
              className={`rounded border px-1.5 py-0.5 ${s.op === "StepError" || s.op === "StepFailed" ? "border-danger-line text-danger" : "border-line text-fg-2"}`}
              title={s.error ? errorText(s.error) : s.op}
            >
              {s.name}
              {s.op === "StepError" ? ` (attempt ${s.attempt + 1} failed)` : s.op === "StepFailed" ? " (failed)" : ""}
            </li>
          ))}
        </ol>
      ) : null}
      {run.error ? <p className="mt-1 break-all text-xs text-danger">{errorText(run.error)}</p> : null}
    </li>
  );
}

// Development only (like /dev/mailbox): what the local Inngest executor received and ran, so a
// newcomer can watch webhook deliveries, emails and reminders happen.
export default async function DevInngestPage() {
  if (!devInngestEnabled()) notFound();
  const activity = await devActivity();
  return (
    <main className="mx-auto max-w-5xl space-y-4 px-4 py-8">
      <h1 className="text-2xl font-semibold">Background jobs</h1>
      {activity.kind === "elsewhere" ? (
        <Card>
          <p className="text-fg-2">{activity.reason}.</p>
          {activity.url ? (
            <p className="mt-2 text-sm">
              <a className="text-info underline" href={activity.url}>
                Open {activity.url}
              </a>
            </p>
          ) : null}
        </Card>
      ) : (
        <>
          <p className="text-sm text-fg-muted">
            Local Inngest executor at {activity.url} · {activity.functions.length} functions synced · newest first, reload to refresh
          </p>
          <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
            <Card title={`Runs (${activity.runs.length})`}>
              {activity.runs.length === 0 ? <p className="text-fg-muted">No run yet.</p> : null}
              <ul>
                {activity.runs.map((run) => (
                  <RunRow key={run.id} run={run} />
                ))}
              </ul>
            </Card>
            <Card title={`Events (${activity.events.length})`}>
              {activity.events.length === 0 ? <p className="text-fg-muted">No event yet.</p> : null}
              <ul className="space-y-1 text-sm" data-testid="events">
                {activity.events.map((e) => (
                  <li key={`${e.id}-${e.receivedAt}`} className="break-all">
                    <span className="font-medium">{e.name}</span> <span className="text-xs text-fg-subtle">{time(e.receivedAt)}</span>
                    {e.duplicate ? <span className="ml-1 text-xs text-warning">duplicate id, ignored</span> : null}
                  </li>
                ))}
              </ul>
            </Card>
          </div>
        </>
      )}
    </main>
  );
}
