import { afterCommit, runInBackground } from "@/lib/db";
import { dispatchPendingEvents } from "@/lib/events/dispatch-pending-events";
import { log, withoutLogContext } from "@/lib/log";

// The in-process relay: a timer chain (never setInterval, so runs cannot overlap) that hands the
// outbox to Inngest. The cron sweep in inngest/functions is the second safety net; both may run,
// as dispatchPendingEvents skips rows another relay holds.

type Dispatch = (options: { limit: number }) => Promise<{ sent: number; failed: number }>;

export type EventRelayOptions = {
  /** Pause between runs while Inngest accepts events. */
  intervalMs?: number;
  /** Upper bound of the backoff while sends fail (it starts at intervalMs and doubles). */
  maxBackoffMs?: number;
  /** Events per run; a full batch is followed at once by another run. */
  limit?: number;
  /**
   * Shortest time from one run's start to the next run a kick asks for: writes that commit within
   * it are handed over together (one claim, one send, one mark for all of them) instead of one run
   * each. An idle relay still runs at once on a kick.
   */
  gatherMs?: number;
  /** Defaults to dispatchPendingEvents; tests narrow it to their organization. */
  dispatch?: Dispatch;
};

export type EventRelayHandle = { stop(): Promise<void> };

class EventRelay {
  private timer: NodeJS.Timeout | undefined;
  /** When the scheduled run is due (Date.now() time). */
  private dueAt = 0;
  /** When the last run started. */
  private lastStart = Number.NEGATIVE_INFINITY;
  private running = false;
  private again = false;
  private stopped = false;
  private failures = 0;
  private current: Promise<void> = Promise.resolve();

  constructor(
    private readonly intervalMs: number,
    private readonly maxBackoffMs: number,
    private readonly limit: number,
    private readonly gatherMs: number,
    private readonly dispatch: Dispatch,
  ) {}

  start(): void {
    this.schedule(0);
  }

  kick(): void {
    // While Inngest is failing, kicks from every request would only hammer it; the backoff rules.
    if (this.stopped || this.failures > 0) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // Under a stream of writes, runs follow each other gatherMs apart, each taking what committed
    // meanwhile (one run per write would cost as many statements as the write itself).
    const at = Math.max(Date.now(), this.lastStart + this.gatherMs);
    if (this.dueAt > at) this.schedule(at - Date.now());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.dueAt = Date.now() + ms;
    // Outside the log context of the request that kicked it: its runs are not that request's work.
    this.timer = withoutLogContext(() =>
      setTimeout(() => {
        // Background work: its statements use the background lane's pool (lib/db.ts).
        this.current = runInBackground(() => this.run());
      }, ms),
    );
    // A pending relay run must not keep a process (a script, a test worker) alive.
    this.timer.unref();
  }

  private async run(): Promise<void> {
    this.running = true;
    this.dueAt = Number.POSITIVE_INFINITY;
    try {
      let more: boolean;
      do {
        this.again = false;
        this.lastStart = Date.now();
        const { sent, failed } = await this.dispatch({ limit: this.limit });
        if (failed > 0) {
          this.fail(`${failed} event(s) not accepted by Inngest; they stay pending`);
          break;
        }
        this.recover();
        // A full batch: more are waiting, at once. Kicked during the run: at once only if the run
        // took the gathering time already (else the schedule below waits for the rest of it).
        more = sent >= this.limit || (this.again && Date.now() >= this.lastStart + this.gatherMs);
      } while (more && !this.stopped);
    } catch (err) {
      this.fail(`relay run failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.running = false;
      if (!this.stopped) {
        if (this.failures === 0 && this.again) this.schedule(Math.max(0, this.lastStart + this.gatherMs - Date.now()));
        else this.schedule(this.nextDelay());
      }
    }
  }

  private fail(message: string): void {
    this.failures += 1;
    // One line when the outage starts, not one per retry; the rows carry the last error.
    if (this.failures === 1) log().warn({ component: "event-relay" }, `${message}; backing off`);
  }

  private recover(): void {
    if (this.failures > 0) log().info({ component: "event-relay" }, `recovered after ${this.failures} failed run(s)`);
    this.failures = 0;
  }

  private nextDelay(): number {
    if (this.failures === 0) return this.intervalMs;
    return Math.min(this.intervalMs * 2 ** (this.failures - 1), this.maxBackoffMs);
  }
}

// One relay per process; on globalThis because Next.js dev reloads modules.
const globalForRelay = globalThis as unknown as { __eventRelay?: EventRelay };

/**
 * Starts the process's relay (started from instrumentation.ts); a second call while one runs
 * returns a handle to the same relay.
 */
export function startEventRelay(options: EventRelayOptions = {}): EventRelayHandle {
  let relay = globalForRelay.__eventRelay;
  if (!relay) {
    relay = new EventRelay(
      options.intervalMs ?? 1_000,
      options.maxBackoffMs ?? 30_000,
      options.limit ?? 100,
      options.gatherMs ?? 20,
      options.dispatch ?? dispatchPendingEvents,
    );
    globalForRelay.__eventRelay = relay;
    relay.start();
  }
  const started = relay;
  return {
    stop: async () => {
      if (globalForRelay.__eventRelay === started) globalForRelay.__eventRelay = undefined;
      await started.stop();
    },
  };
}

/**
 * Asks the relay to run now; domain code calls it after committing a transaction that recorded
 * events. Inside an ambient transaction (lib/db.ts) the kick waits for that transaction's commit,
 * as its events are not visible before. Never throws; without a running relay the events wait for
 * the cron sweep.
 */
export function kickEventRelay(): void {
  afterCommit(() => globalForRelay.__eventRelay?.kick());
}
