import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Card } from "@/components/ui/card";
import { devActivity, devInngestEnabled, type DevRun } from "@/inngest/dev-activity";

export const metadata: Metadata = { title: "Background jobs" };
export const dynamic = "force-dynamic";

const STATUS_STYLE: Record<string, string> = {
  Completed: "bg-green-100 text-green-800",
  Failed: "bg-red-100 text-red-800",
  Cancelled: "bg-slate-200 text-slate-700",
  Running: "bg-blue-100 text-blue-800",
  Queued: "bg-blue-100 text-blue-800",
};

const short = (fn: string) => fn.replace(/^client-portals-/, "");
const time = (iso: string) => iso.slice(11, 19);

function errorText(error: unknown): string {
  if (error && typeof error === "object" && "message" in error) return String((error as { message: unknown }).message);
  return JSON.stringify(error);
}

function RunRow({ run }: { run: DevRun }) {
  return (
    <li className="border-t border-slate-100 py-3 first:border-t-0" data-testid="run">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="font-medium">{short(run.functionId)}</span>
        <span className={`rounded px-2 py-0.5 text-xs ${STATUS_STYLE[run.status] ?? ""}`}>{run.status}</span>
        <span className="text-xs text-slate-500">
          {run.event.name} · started {time(run.startedAt)}
          {run.endedAt ? ` · ended ${time(run.endedAt)}` : ""}
        </span>
      </div>
      {run.steps.length > 0 ? (
        <ol className="mt-1 flex flex-wrap gap-1 text-xs">
          {run.steps.map((s, i) => (
            <li
              key={`${s.id}-${i}`}
              className={`rounded border px-1.5 py-0.5 ${s.op === "StepError" || s.op === "StepFailed" ? "border-red-300 text-red-700" : "border-slate-200 text-slate-700"}`}
              title={s.error ? errorText(s.error) : s.op}
            >
              {s.name}
              {s.op === "StepError" ? ` (attempt ${s.attempt + 1} failed)` : s.op === "StepFailed" ? " (failed)" : ""}
            </li>
          ))}
        </ol>
      ) : null}
      {run.error ? <p className="mt-1 break-all text-xs text-red-700">{errorText(run.error)}</p> : null}
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
          <p className="text-slate-700">{activity.reason}.</p>
          {activity.url ? (
            <p className="mt-2 text-sm">
              <a className="text-blue-700 underline" href={activity.url}>
                Open {activity.url}
              </a>
            </p>
          ) : null}
        </Card>
      ) : (
        <>
          <p className="text-sm text-slate-600">
            Local Inngest executor at {activity.url} · {activity.functions.length} functions synced · newest first, reload to refresh
          </p>
          <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
            <Card title={`Runs (${activity.runs.length})`}>
              {activity.runs.length === 0 ? <p className="text-slate-600">No run yet.</p> : null}
              <ul>
                {activity.runs.map((run) => (
                  <RunRow key={run.id} run={run} />
                ))}
              </ul>
            </Card>
            <Card title={`Events (${activity.events.length})`}>
              {activity.events.length === 0 ? <p className="text-slate-600">No event yet.</p> : null}
              <ul className="space-y-1 text-sm" data-testid="events">
                {activity.events.map((e) => (
                  <li key={`${e.id}-${e.receivedAt}`} className="break-all">
                    <span className="font-medium">{e.name}</span> <span className="text-xs text-slate-500">{time(e.receivedAt)}</span>
                    {e.duplicate ? <span className="ml-1 text-xs text-amber-700">duplicate id, ignored</span> : null}
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
