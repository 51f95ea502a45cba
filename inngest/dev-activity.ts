import { inngestSettings } from "@/inngest/config";
import { env } from "@/lib/env";

// What /dev/inngest shows: the local executor's record (scripts/test/inngest-executor.ts serves it
// at GET /_executor/state). Shapes repeated here, not imported: production code never imports
// the executor.

type DevEvent = { id: string; name: string; receivedAt: string; duplicate: boolean; data: unknown };
type DevStep = { id: string; name: string; op: string; attempt: number; at: string; error?: unknown };
export type DevRun = {
  id: string;
  functionId: string;
  event: DevEvent;
  status: string;
  startedAt: string;
  endedAt?: string;
  output?: unknown;
  error?: unknown;
  steps: DevStep[];
  calls: Array<{ stepId: string; attempt: number; status: number; at: string }>;
};

export type DevActivity =
  | { kind: "executor"; url: string; functions: string[]; events: DevEvent[]; runs: DevRun[] }
  /** A real Inngest Dev Server (or nothing) answers: its own UI shows the runs. */
  | { kind: "elsewhere"; url: string; reason: string };

/** /dev/inngest exists while the app talks to a Dev Server, outside production (or with DEV_MAILBOX, as /dev/mailbox). */
export function devInngestEnabled(): boolean {
  const e = env();
  return inngestSettings(e).isDev && (e.NODE_ENV !== "production" || e.DEV_MAILBOX);
}

export async function devActivity(limit = 50): Promise<DevActivity> {
  const url = inngestSettings(env()).baseUrl ?? "";
  try {
    const res = await fetch(new URL("/_executor/state", url), { cache: "no-store", signal: AbortSignal.timeout(3_000) });
    if (!res.ok)
      return {
        kind: "elsewhere",
        url,
        reason: `the Inngest server at ${url} is not the local executor (HTTP ${res.status}): its own UI lists events and runs`,
      };
    const state = (await res.json()) as { functions: string[]; events: DevEvent[]; runs: DevRun[] };
    return {
      kind: "executor",
      url,
      functions: state.functions,
      events: state.events.slice(-limit).reverse(),
      runs: state.runs.slice(-limit).reverse(),
    };
  } catch (e) {
    return {
      kind: "elsewhere",
      url,
      reason: `no Inngest server answers at ${url} (${e instanceof Error ? e.message : String(e)}): events wait in the outbox until one does`,
    };
  }
}
