/**
 * A local Inngest server for tests and `npm run dev` (never imported by the application): the
 * parts of Inngest that the SDK talks to, over real HTTP, as described by Inngest's SDK
 * specification (docs/SDK_SPEC.md) and as `inngest` 4.24 speaks them. See docs/jobs.md, "Inngest",
 * for what it implements and what it leaves out.
 *
 *   POST /e/:eventKey                      event ingestion (one event or an array; ids deduplicated)
 *   POST /fn/register                      app sync: the SDK's answer to our PUT on its serve URL
 *   POST /v1/checkpoint/:runId/async       step results the SDK checkpoints while it runs on
 *   GET  /_executor/state                  everything recorded, for /dev/inngest and tests
 *
 * and it calls the SDK's serve endpoint (`POST <url>?fnId=…&stepId=…`) to run functions, signing
 * each request when it has a signing key, as Inngest Cloud does.
 */
import { createHash, createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import type { EventPayload } from "inngest";
import { type FunctionConfig, type OutgoingOp, type RegisterRequest, StepOpCode } from "inngest/types";

export type ExecutorOptions = {
  /** Port on 127.0.0.1 (0: any free one). */
  port?: number;
  /** With a signing key, requests to the SDK are signed and the SDK's own requests must carry its hash. */
  signingKey?: string;
  /** With an event key, ingestion refuses any other key. */
  eventKey?: string;
  /**
   * Every wait (sleeps, waitForEvent timeouts, retry backoff) is multiplied by this (default 1).
   * Each run keeps its own clock, ahead of the real one by the time its waits skipped, against
   * which `sleepUntil` dates are measured.
   */
  timeScale?: number;
  /** Run cron-triggered functions on their schedule (default false: only `runCron`). */
  cron?: boolean;
  /** Send `ctx.fn_id`, which switches the SDK to checkpointing mode (default true, as Inngest does). */
  checkpointing?: boolean;
  /**
   * Calls to the app in flight at most, all functions together (default 16): a backlog of runs
   * waits here, as Inngest's queue holds it, instead of opening a connection each.
   */
  maxConcurrentCalls?: number;
  /**
   * Ended runs and events kept for `state()` (default 10,000 each; the oldest go first), so that
   * memory stays bounded whatever the backlog; deduplication by event id keeps its own index.
   */
  retain?: number;
  log?: (line: string) => void;
};

export type RecordedEvent = EventPayload & { id: string; ts: number; receivedAt: string; duplicate: boolean };

export type StepRecord = {
  id: string;
  name: string;
  op: string;
  attempt: number;
  data?: unknown;
  error?: unknown;
  /** For a sleep: how long it was on the run's clock (the real wait is this times the time scale). */
  sleptMs?: number;
  at: string;
  /** How the result arrived: in a call's response or through a checkpoint. */
  via: "response" | "checkpoint" | "executor";
};

export type RunStatus = "Queued" | "Running" | "Completed" | "Failed" | "Cancelled";

export type RunRecord = {
  id: string;
  functionId: string;
  event: RecordedEvent;
  /** A run of a batch (`batchEvents`): all its events, `event` being the first. */
  events?: RecordedEvent[];
  status: RunStatus;
  startedAt: string;
  endedAt?: string;
  output?: unknown;
  error?: unknown;
  steps: StepRecord[];
  /** One per call request: which step was asked for, with which attempt, and the HTTP status. */
  calls: Array<{ stepId: string; attempt: number; status: number; at: string }>;
  /** While the run waits (a sleep, a wait for an event, a retry's backoff): when it goes on, in real time. */
  wakesAt?: string;
};

export type ExecutorState = {
  apps: string[];
  functions: string[];
  events: RecordedEvent[];
  runs: RunRecord[];
  /** No run queued, running or waiting, and no batch gathering. */
  idle: boolean;
  /** Batches gathering events, not started yet. */
  gathering: number;
};

type Run = RunRecord & {
  fn: FunctionConfig;
  url: string;
  memo: Record<string, { data: unknown } | { error: unknown }>;
  stack: string[];
  cancel?: () => void;
  queueItem: string;
};

type Waiter = { run: Run; op: OutgoingOp; resolve: (event: RecordedEvent | null) => void };

const DAY = 86_400_000;
const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: DAY, w: 7 * DAY };

/** A time string ("30s", "1h30m") or an ISO date, as milliseconds from now. */
export function durationMs(value: string, now = Date.now()): number {
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d|w)/g)];
  if (parts.length > 0 && parts.map((p) => p[0]).join("") === value) {
    return parts.reduce((sum, [, n, unit]) => sum + Number(n) * UNITS[unit!]!, 0);
  }
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw new Error(`not a duration or date: ${value}`);
  return at - now;
}

/** RFC 8785 (JCS) for JSON values: what the SDK signs when it verifies a parsed body. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(",")}}`;
}

const withoutPrefix = (key: string) => key.replace(/^signkey-\w+-/, "");

/** `X-Inngest-Signature` for a body (SDK spec 4.1.1). */
export function signRequest(body: string, signingKey: string, ts = Math.round(Date.now() / 1000)): string {
  const s = createHmac("sha256", withoutPrefix(signingKey))
    .update(body + String(ts))
    .digest("hex");
  return `t=${ts}&s=${s}`;
}

/** The bearer token the SDK sends: the key's prefix and the SHA-256 of its hex (SDK spec 4.1.4). */
export function hashedSigningKey(signingKey: string): string {
  const prefix = /^signkey-\w+-/.exec(signingKey)?.[0] ?? "";
  return (
    prefix +
    createHash("sha256")
      .update(Buffer.from(withoutPrefix(signingKey), "hex"))
      .digest("hex")
  );
}

/** A dotted path (`event.data.task_id`) or a quoted literal, for the expressions the functions use. */
function operand(expr: string, vars: Record<string, unknown>): unknown {
  const s = expr.trim();
  const quoted = /^'(.*)'$|^"(.*)"$/.exec(s);
  if (quoted) return quoted[1] ?? quoted[2];
  if (/^-?\d+(\.\d+)?$/.test(s)) return Number(s);
  if (s === "true" || s === "false") return s === "true";
  return s.split(".").reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), vars);
}

/**
 * The subset of CEL that expressions in this app use: `a == b` / `a != b` terms joined by `&&`.
 * Anything else throws, so a new kind of expression fails loudly here instead of matching wrongly.
 */
export function evaluate(expression: string | undefined, vars: Record<string, unknown>): boolean {
  if (!expression?.trim()) return true;
  return expression.split("&&").every((term) => {
    const m = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(term.trim());
    if (!m) throw new Error(`expression not supported by the local executor: ${expression}`);
    const equal = operand(m[1]!, vars) === operand(m[3]!, vars);
    return m[2] === "==" ? equal : !equal;
  });
}

function cronField(field: string, value: number): boolean {
  return field.split(",").some((part) => {
    const [range, step] = part.split("/");
    const every = Number(step ?? 1);
    if (range === "*") return value % every === 0;
    const [from, to] = range!.split("-").map(Number);
    return value >= from! && value <= (to ?? (step ? Infinity : from!)) && (value - from!) % every === 0;
  });
}

/** Whether a five-field cron expression (UTC) matches a minute. */
export function cronMatches(expression: string, at: Date): boolean {
  const f = expression.trim().split(/\s+/);
  const values = [at.getUTCMinutes(), at.getUTCHours(), at.getUTCDate(), at.getUTCMonth() + 1, at.getUTCDay()];
  return f.length === 5 && f.every((field, i) => cronField(field, values[i]!));
}

/** The limiter behind `concurrency: { key, limit }`: calls (not sleeping runs) in flight per key. */
class Slots {
  private readonly used = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  async take(key: string, limit: number): Promise<() => void> {
    if ((this.used.get(key) ?? 0) >= limit) {
      // Woken by a release that hands its slot over (the count stays as it is).
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(key) ?? [];
        queue.push(resolve);
        this.waiting.set(key, queue);
      });
    } else this.used.set(key, (this.used.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.get(key)?.shift();
      if (next) next();
      else this.used.set(key, (this.used.get(key) ?? 1) - 1);
    };
  }
}

class Cancelled extends Error {}

export class InngestExecutor {
  readonly events: RecordedEvent[] = [];
  readonly runs: Run[] = [];
  /** Runs queued or running, by id: what checkpoints, cancellations and singletons look at. */
  private readonly active = new Map<string, Run>();
  /** Event ids received (not duplicates) and when, for the 24-hour deduplication. */
  private readonly seen = new Map<string, number>();
  private readonly apps = new Map<string, { url: string; functions: FunctionConfig[] }>();
  private readonly waiters: Waiter[] = [];
  /** Batches being gathered (`batchEvents`), by function and batch key. */
  private readonly batches = new Map<string, { fn: FunctionConfig; events: RecordedEvent[]; timer: NodeJS.Timeout }>();
  private readonly slots = new Slots();
  private readonly retain: number;
  /** Set while the engine is down (`down()`): calls to the app wait for it. */
  private held: { promise: Promise<void>; resume: () => void } | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly listeners = new Set<() => void>();
  private server: Server | undefined;
  private cronTimer: NodeJS.Timeout | undefined;
  private lastCronMinute = -1;
  private timeScale: number;
  private readonly log: (line: string) => void;
  url = "";

  constructor(private readonly options: ExecutorOptions = {}) {
    this.timeScale = options.timeScale ?? 1;
    this.log = options.log ?? (() => {});
    this.retain = options.retain ?? 10_000;
  }

  // --- lifecycle ---------------------------------------------------------------------------

  async listen(port = this.options.port ?? 0): Promise<string> {
    const server = createServer((req, res) => void this.route(req, res));
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (this.options.cron && !this.cronTimer) {
      this.cronTimer = setInterval(() => this.tickCron(new Date()), 5_000);
      this.cronTimer.unref();
    }
    return this.url;
  }

  /**
   * The engine down as a whole: it stops listening (events and checkpoints are refused) and makes
   * no call to the app until `up()`; runs keep their state, and a wait that ends meanwhile ends late.
   */
  async down(): Promise<void> {
    let resume: () => void = () => undefined;
    this.held ??= { promise: new Promise<void>((r) => (resume = r)), resume: () => resume() };
    await this.close();
    // A call already under way when the engine went down ends first (its answer is recorded).
    await Promise.allSettled([...this.inFlight]);
  }

  /** Back after `down()`: listens on the same port again, and the held calls go out. */
  async up(): Promise<void> {
    if (!this.server) await this.listen(Number(new URL(this.url).port));
    const held = this.held;
    this.held = undefined;
    held?.resume();
  }

  /** Stops listening (the port refuses connections, as a stopped Inngest would); runs keep their state. */
  async close(): Promise<void> {
    clearInterval(this.cronTimer);
    this.cronTimer = undefined;
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Asks an app to sync, as the Dev Server does with `-u`: a PUT on its serve URL. */
  async sync(serveUrl: string): Promise<void> {
    const res = await fetch(serveUrl, { method: "PUT", headers: { "X-Inngest-Server-Kind": this.kind } });
    const text = await res.text();
    if (!res.ok) throw new Error(`sync of ${serveUrl} failed: HTTP ${res.status} ${text}`);
    this.log(`synced ${serveUrl}`);
  }

  /** `sync`, retried until the app answers or `timeoutMs` has passed. */
  async syncWhenUp(serveUrl: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return await this.sync(serveUrl);
      } catch (e) {
        if (Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  // --- what tests use ----------------------------------------------------------------------

  /** Changes the time scale for waits that start from now on. */
  setTimeScale(scale: number): void {
    this.timeScale = scale;
  }

  state(): ExecutorState {
    return {
      apps: [...this.apps.values()].map((a) => a.url),
      functions: this.functions().map((f) => f.id),
      events: this.events,
      runs: this.runs.map(({ fn: _fn, url: _url, memo: _memo, stack: _stack, cancel: _cancel, queueItem: _qi, ...record }) => record),
      idle: this.active.size === 0 && this.batches.size === 0,
      gathering: this.batches.size,
    };
  }

  /** Resolves with the first run that satisfies `predicate`, once it has. */
  waitFor<T>(check: () => T | undefined, timeoutMs = 30_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const attempt = () => {
        const found = check();
        if (found === undefined) return false;
        cleanup();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`executor: nothing matched within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      const listener = () => void attempt();
      if (!attempt()) this.listeners.add(listener);
    });
  }

  /** Starts a run of a cron-triggered function now. */
  runCron(functionId: string): Run {
    const fn = this.functions().find((f) => f.id === functionId || f.id.endsWith(`-${functionId}`));
    if (!fn) throw new Error(`no function ${functionId}`);
    const event = this.record({ name: "inngest/scheduled.timer", data: { cron: "on demand" } });
    return this.startRun(fn, event);
  }

  // --- HTTP --------------------------------------------------------------------------------

  private get kind(): "dev" | "cloud" {
    return this.options.signingKey ? "cloud" : "dev";
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://executor");
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { "content-type": "application/json", "x-inngest-server-kind": this.kind }).end(JSON.stringify(body));
    };
    try {
      const eventKey = /^\/e\/([^/]+)$/.exec(url.pathname)?.[1];
      if (req.method === "POST" && eventKey !== undefined) {
        if (this.options.eventKey && decodeURIComponent(eventKey) !== this.options.eventKey) return send(401, { error: "Event key not found" });
        const payloads = [JSON.parse(raw) as EventPayload | EventPayload[]].flat();
        return send(200, { ids: payloads.map((p) => this.receive(p).id), status: 200 });
      }
      if (req.method === "GET" && url.pathname === "/_executor/state") return send(200, this.state());
      if (!this.authorized(req)) return send(401, { error: "Unauthorized: the signing key's hash is required" });
      if (req.method === "POST" && url.pathname === "/fn/register") return send(200, this.register(JSON.parse(raw) as RegisterRequest));
      const runId = /^\/v1\/checkpoint\/([^/]+)\/async$/.exec(url.pathname)?.[1];
      if (req.method === "POST" && runId) {
        const body = JSON.parse(raw) as { qi_id?: string; steps: OutgoingOp[] };
        const run = this.active.get(decodeURIComponent(runId));
        if (!run || run.status !== "Running" || run.queueItem !== body.qi_id) return send(409, { error: "stale dispatch" });
        for (const op of body.steps) this.applyOp(run, op, 0, "checkpoint");
        return send(200, {});
      }
      return send(404, { error: `not implemented by the local executor: ${req.method} ${url.pathname}` });
    } catch (e) {
      return send(400, { error: e instanceof Error ? e.message : String(e) });
    }
  }

  private authorized(req: IncomingMessage): boolean {
    if (!this.options.signingKey) return true;
    return req.headers.authorization === `Bearer ${hashedSigningKey(this.options.signingKey)}`;
  }

  private register(body: RegisterRequest): { status: number; modified: boolean; error: string } {
    const previous = JSON.stringify(this.apps.get(body.appName)?.functions ?? []);
    this.apps.set(body.appName, { url: body.url, functions: body.functions });
    this.log(`synced ${body.appName} at ${body.url}: ${body.functions.length} functions`);
    this.changed();
    return { status: 200, modified: previous !== JSON.stringify(body.functions), error: "Successfully registered" };
  }

  private functions(): FunctionConfig[] {
    return [...this.apps.values()].flatMap((a) => a.functions);
  }

  // --- events ------------------------------------------------------------------------------

  private record(payload: Partial<EventPayload> & { name: string }, duplicate = false): RecordedEvent {
    const event: RecordedEvent = {
      ...payload,
      data: payload.data ?? {},
      id: payload.id || randomUUID(),
      ts: payload.ts ?? Date.now(),
      receivedAt: new Date().toISOString(),
      duplicate,
    };
    this.events.push(event);
    this.prune();
    this.changed();
    return event;
  }

  /** One ingested event: deduplicated by id (24 hours, as Inngest), then waits, cancellations, triggers. */
  private receive(payload: EventPayload): RecordedEvent {
    if (!payload.name) throw new Error("event has no name");
    const now = Date.now();
    const seenAt = payload.id ? this.seen.get(payload.id) : undefined;
    const duplicate = seenAt !== undefined && now - seenAt < DAY;
    const event = this.record(payload, duplicate);
    if (duplicate) return event;
    this.seen.set(event.id, now);
    if (this.seen.size > 20 * this.retain) this.forgetOldIds(now);
    for (const waiter of [...this.waiters]) {
      // SDK 4 puts the awaited event's name in `name`; the spec's shape has it in opts.event.
      const opts = waiter.op.opts as { event?: string; if?: string };
      const name = opts.event ?? waiter.op.name;
      if (name === event.name && evaluate(opts.if, { event: waiter.run.event, async: event })) waiter.resolve(event);
    }
    for (const run of [...this.active.values()]) {
      const hit = run.fn.cancel?.some((c) => c.event === event.name && evaluate(c.if, { event: run.event, async: event }));
      if (hit) run.cancel?.();
    }
    for (const fn of this.functions()) {
      const triggered = fn.triggers.some((t) => "event" in t && t.event === event.name && evaluate(t.expression, { event }));
      if (triggered) this.trigger(fn, event);
    }
    return event;
  }

  /**
   * Starts a run for the event, or adds it to its batch (`batchEvents`, as Inngest: a batch per
   * key value, started when it holds `maxSize` events or `timeout` after its first; events that
   * do not match the batch's `if` run alone).
   */
  private trigger(fn: FunctionConfig, event: RecordedEvent): void {
    const batching = fn.batchEvents as { maxSize: number; timeout: string; key?: string; if?: string } | undefined;
    if (!batching || !evaluate(batching.if, { event })) return void this.startRun(fn, event);
    const key = `${fn.id}:${batching.key ? String(operand(batching.key, { event })) : ""}`;
    let batch = this.batches.get(key);
    if (!batch) {
      batch = { fn, events: [], timer: setTimeout(() => this.startBatch(key), durationMs(batching.timeout)).unref() };
      this.batches.set(key, batch);
    }
    batch.events.push(event);
    if (batch.events.length >= batching.maxSize) this.startBatch(key);
  }

  private startBatch(key: string): void {
    const batch = this.batches.get(key);
    if (!batch) return;
    this.batches.delete(key);
    clearTimeout(batch.timer);
    this.startRun(batch.fn, batch.events[0]!, batch.events);
  }

  private tickCron(now: Date): void {
    const minute = Math.floor(now.getTime() / 60_000);
    if (minute === this.lastCronMinute) return;
    this.lastCronMinute = minute;
    for (const fn of this.functions()) {
      if (fn.triggers.some((t) => "cron" in t && cronMatches(t.cron, now))) {
        this.startRun(fn, this.record({ name: "inngest/scheduled.timer", data: { cron: now.toISOString() } }));
      }
    }
  }

  // --- runs --------------------------------------------------------------------------------

  private startRun(fn: FunctionConfig, event: RecordedEvent, batch?: RecordedEvent[]): Run {
    const step = Object.values(fn.steps)[0]!;
    const run: Run = {
      id: randomUUID(),
      functionId: fn.id,
      event,
      ...(batch ? { events: batch } : {}),
      status: "Queued",
      startedAt: new Date().toISOString(),
      steps: [],
      calls: [],
      fn,
      url: step.runtime.url,
      memo: {},
      stack: [],
      queueItem: randomUUID(),
    };
    const singleton = fn.singleton as { mode?: string } | undefined;
    if (singleton && [...this.active.values()].some((r) => r.functionId === fn.id)) {
      run.status = "Cancelled";
      run.error = { message: "skipped: singleton run in progress" };
      this.runs.push(run);
      return run;
    }
    this.runs.push(run);
    this.active.set(run.id, run);
    this.changed();
    void this.drive(run);
    return run;
  }

  private maxAttempts(run: Run): number {
    const retries = Object.values(run.fn.steps)[0]?.retries?.attempts;
    return (retries ?? 3) + 1;
  }

  /** The run loop: call, apply the ops, wait where told, until it ends. */
  private async drive(run: Run): Promise<void> {
    let aborted = false;
    const abortWaits = new Set<() => void>();
    run.cancel = () => {
      aborted = true;
      for (const abort of abortWaits) abort();
    };
    /**
     * Waits `ms` of the run's clock (scaled); `handle.cancel` ends the wait early, as cancelled. A
     * run has one wait at a time (a matched waitForEvent cancels its timeout), shown as `wakesAt`.
     */
    const wait = (ms: number, handle: { cancel?: () => void } = {}) =>
      new Promise<void>((resolve, reject) => {
        const realMs = Math.max(0, ms * this.timeScale);
        const end = () => {
          clearTimeout(timer);
          abortWaits.delete(abort);
          delete run.wakesAt;
          this.changed();
        };
        const abort = () => {
          end();
          reject(new Cancelled());
        };
        const timer = setTimeout(() => {
          end();
          resolve();
        }, realMs);
        abortWaits.add(abort);
        handle.cancel = abort;
        run.wakesAt = new Date(Date.now() + realMs).toISOString();
        this.changed();
      });

    run.status = "Running";
    // The run's own clock: each scaled wait moves it ahead of the real one by what it skipped, so
    // that a later sleepUntil (an absolute time the app planned) waits only for the rest.
    let skew = 0;
    /** Waits (scaled) and returns the run-clock milliseconds waited. */
    const sleepFor = async (value: string, handle?: { cancel?: () => void }) => {
      const ms = Math.max(0, durationMs(value, Date.now() + skew));
      await wait(ms, handle);
      skew += ms * (1 - this.timeScale);
      return ms;
    };
    let attempt = 0;
    let disableImmediate = false;
    const planned: string[] = [];
    try {
      for (;;) {
        if (aborted) throw new Cancelled();
        const stepId = planned[0] ?? "step";
        const reply = await this.call(run, stepId, attempt, disableImmediate);
        if (aborted) throw new Cancelled();
        if (reply.status === 200) return this.finish(run, "Completed", { output: reply.body });
        if (reply.status !== 206) {
          const final = reply.noRetry || attempt + 1 >= this.maxAttempts(run);
          if (final) return this.finish(run, "Failed", { error: reply.body });
          attempt += 1;
          await wait(this.backoffMs(attempt));
          continue;
        }
        const ops = [reply.body as OutgoingOp | OutgoingOp[]].flat();
        let next: "again" | "retry" = "again";
        for (const op of ops) {
          if (op.op === "RunComplete") return this.finish(run, "Completed", { output: op.data });
          if (op.op === "StepPlanned") {
            planned.push(op.id);
            continue;
          }
          if (op.op === "StepError") {
            if (attempt + 1 < this.maxAttempts(run) && !reply.noRetry) {
              this.recordStep(run, op, attempt, "response");
              next = "retry";
              continue;
            }
            op.op = StepOpCode.StepFailed;
          }
          if (op.op === "Sleep") {
            // SDK 4 puts the duration (a time string, or an ISO date for sleepUntil) in `name`.
            const slept = await sleepFor((op.opts as { duration?: string } | undefined)?.duration ?? op.name ?? "0s");
            this.applyOp(run, { ...op, data: null }, attempt, "executor", slept);
            continue;
          }
          if (op.op === "WaitForEvent") {
            const opts = op.opts as { timeout: string };
            const matched = await new Promise<RecordedEvent | null>((resolve, reject) => {
              // The match or the timeout, whichever comes first; a match cancels the timeout.
              const timeout: { cancel?: () => void } = {};
              let ended = false;
              const end = () => {
                if (ended) return false;
                ended = true;
                this.waiters.splice(this.waiters.indexOf(waiter), 1);
                return true;
              };
              const waiter: Waiter = {
                run,
                op,
                resolve: (e) => {
                  if (!end()) return;
                  timeout.cancel?.();
                  resolve(e);
                },
              };
              this.waiters.push(waiter);
              sleepFor(opts.timeout, timeout).then(
                () => end() && resolve(null),
                (e: unknown) => end() && reject(e),
              );
            });
            this.applyOp(run, { ...op, data: matched }, attempt, "executor");
            continue;
          }
          this.applyOp(run, op, attempt, "response");
        }
        if (ops.length > 1) disableImmediate = true;
        if (next !== "retry" && stepId !== "step") planned.splice(planned.indexOf(stepId), 1);
        if (next === "retry") {
          attempt += 1;
          await wait(this.backoffMs(attempt));
        } else attempt = 0;
      }
    } catch (e) {
      if (e instanceof Cancelled) return this.finish(run, "Cancelled", {});
      return this.finish(run, "Failed", { error: { message: e instanceof Error ? e.message : String(e) } });
    }
  }

  /** Inngest's backoff grows from seconds to hours; here: 1 s, 2 s, 4 s … (times the time scale). */
  private backoffMs(attempt: number): number {
    return Math.min(1000 * 2 ** (attempt - 1), 3_600_000);
  }

  /** A result the SDK reported (a response or a checkpoint) becomes memoized state. */
  private applyOp(run: Run, op: OutgoingOp, attempt: number, via: StepRecord["via"], slept?: number): void {
    if (op.op === "RunComplete") {
      this.finish(run, "Completed", { output: op.data });
      return;
    }
    if (op.op === "StepError") return void this.recordStep(run, op, attempt, via);
    run.memo[op.id] = op.op === "StepFailed" ? { error: op.error } : { data: op.data ?? null };
    run.stack.push(op.id);
    this.recordStep(run, op, attempt, via, slept);
  }

  private recordStep(run: Run, op: OutgoingOp, attempt: number, via: StepRecord["via"], slept?: number): void {
    run.steps.push({
      id: op.id,
      name: op.displayName ?? op.name ?? op.id,
      op: op.op,
      attempt,
      ...(op.data !== undefined ? { data: op.data } : {}),
      ...(op.error !== undefined ? { error: op.error } : {}),
      ...(slept !== undefined ? { sleptMs: slept } : {}),
      at: new Date().toISOString(),
      via,
    });
    this.changed();
  }

  private async call(run: Run, stepId: string, attempt: number, disableImmediate: boolean): Promise<{ status: number; body: unknown; noRetry: boolean }> {
    while (this.held) await this.held.promise;
    const call = this.callApp(run, stepId, attempt, disableImmediate);
    this.inFlight.add(call);
    try {
      return await call;
    } finally {
      this.inFlight.delete(call);
    }
  }

  private async callApp(run: Run, stepId: string, attempt: number, disableImmediate: boolean): Promise<{ status: number; body: unknown; noRetry: boolean }> {
    const concurrency = [run.fn.concurrency ?? []].flat() as Array<{ key?: string; limit: number }>;
    const releases = await Promise.all(
      concurrency.map((c) => this.slots.take(`${run.functionId}:${c.key ? String(operand(c.key, { event: run.event })) : ""}`, c.limit)),
    );
    // The function's own limits first, then one of the engine's: a run held by its key never
    // takes a slot that another function's run could use.
    releases.push(await this.slots.take("*", this.options.maxConcurrentCalls ?? 16));
    try {
      run.queueItem = randomUUID();
      const url = new URL(run.url);
      url.searchParams.set("stepId", stepId);
      const body = canonicalJson(
        JSON.parse(
          JSON.stringify({
            event: run.event,
            events: run.events ?? [run.event],
            steps: run.memo,
            ctx: {
              run_id: run.id,
              attempt,
              max_attempts: this.maxAttempts(run),
              disable_immediate_execution: disableImmediate,
              use_api: false,
              stack: { stack: run.stack, current: run.stack.length },
              ...(this.options.checkpointing === false ? {} : { fn_id: run.functionId, qi_id: run.queueItem }),
            },
            version: 2,
          }),
        ),
      );
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "x-inngest-server-kind": this.kind,
        "x-inngest-req-version": "2",
      };
      if (this.options.signingKey) headers["x-inngest-signature"] = signRequest(body, this.options.signingKey);
      let status = 0;
      let text = "";
      let noRetry = false;
      try {
        const res = await fetch(url, { method: "POST", headers, body });
        status = res.status;
        noRetry = res.headers.get("x-inngest-no-retry") === "true";
        text = await res.text();
      } catch (e) {
        text = JSON.stringify({ message: `call failed: ${e instanceof Error ? e.message : String(e)}` });
      }
      run.calls.push({ stepId, attempt, status, at: new Date().toISOString() });
      this.changed();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON (a proxy's error page): kept as text.
      }
      return { status, body: parsed, noRetry };
    } finally {
      releases.forEach((release) => release());
    }
  }

  private finish(run: Run, status: RunStatus, result: { output?: unknown; error?: unknown }): void {
    if (run.status !== "Running" && run.status !== "Queued") return;
    run.status = status;
    run.endedAt = new Date().toISOString();
    Object.assign(run, result);
    this.active.delete(run.id);
    this.prune();
    this.log(`run ${run.id} of ${run.functionId}: ${status}`);
    if (!run.functionId.endsWith("-failure") && run.event.name !== "inngest/function.failed") {
      const data = { function_id: run.functionId, run_id: run.id, event: run.event, ...result };
      if (status === "Failed") this.receive({ name: "inngest/function.failed", data });
      if (status === "Cancelled") this.receive({ name: "inngest/function.cancelled", data });
      this.receive({ name: "inngest/function.finished", data });
    }
    this.changed();
  }

  /** Keeps the newest `retain` ended runs and events (runs under way are always kept). */
  private prune(): void {
    const slack = Math.ceil(this.retain / 10);
    if (this.runs.length > this.retain + slack) {
      const drop = this.runs.length - this.retain;
      let dropped = 0;
      for (let i = 0; i < this.runs.length && dropped < drop;) {
        if (this.active.has(this.runs[i]!.id)) i++;
        else {
          this.runs.splice(i, 1);
          dropped++;
        }
      }
    }
    if (this.events.length > this.retain + slack) this.events.splice(0, this.events.length - this.retain);
  }

  /** Drops ids received more than 24 hours ago, then the oldest while the index is still too large. */
  private forgetOldIds(now: number): void {
    for (const [id, at] of this.seen) if (now - at >= DAY) this.seen.delete(id);
    const excess = this.seen.size - 10 * this.retain;
    if (excess > 0) {
      let n = 0;
      for (const id of this.seen.keys()) {
        if (n++ >= excess) break;
        this.seen.delete(id);
      }
    }
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** Starts an executor (see ExecutorOptions) and returns it listening. */
export async function startInngestExecutor(options: ExecutorOptions = {}): Promise<InngestExecutor> {
  const executor = new InngestExecutor(options);
  await executor.listen();
  return executor;
}
