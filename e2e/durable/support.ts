import { createHmac, timingSafeEqual } from "node:crypto";

import type { ReceivedMail } from "../../lib/email/test-support/smtp-sink.ts";
import type { ReceivedRequest } from "../../lib/webhooks/test-support/webhook-receiver.ts";
import type { ExecutorState, RunRecord } from "../../scripts/test/inngest-executor.ts";
import { durablePorts } from "../../scripts/test/durable-services.ts";

// The durable tier's view of its server: the executor's record and the SMTP sink, through the
// control API of scripts/test/durable-services.ts.

const control = `http://127.0.0.1:${durablePorts().control}`;

export type State = ExecutorState & { mail: ReceivedMail[] };

export async function state(): Promise<State> {
  const res = await fetch(`${control}/state`);
  return (await res.json()) as State;
}

async function post(path: string): Promise<void> {
  const res = await fetch(`${control}${path}`, { method: "POST" });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

export const stopExecutor = () => post("/executor/stop");
export const startExecutor = () => post("/executor/start");
export const setTimeScale = (value: number) => post(`/time-scale?value=${value}`);

/** Polls until `check` returns something (not undefined), or fails naming `what`. */
export async function until<T>(what: string, check: (s: State) => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check(await state());
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const ended = (run: RunRecord) => !["Running", "Queued"].includes(run.status);

/** The runs of one of the app's functions (`webhook-delivery`, ...). */
/** A function's runs; a run of a batch is listed once for each of its events, as that event's run. */
export const runsOf = (s: State, fn: string) =>
  s.runs.filter((r) => r.functionId === `client-portals-${fn}`).flatMap((r) => (r.events ?? [r.event]).map((event) => ({ ...r, event })));

/** D19: X-Webhook-Signature is the hex HMAC-SHA256 of the raw body bytes, keyed with the secret. */
export function signatureVerifies(req: ReceivedRequest, secret: string): boolean {
  const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(req.body).digest();
  const given = Buffer.from(String(req.headers["x-webhook-signature"] ?? ""), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const bodyOf = (req: ReceivedRequest) => JSON.parse(req.body.toString("utf8")) as Record<string, unknown>;

/** The Subject of a raw message: unfolded, RFC 2047 encoded words (as nodemailer writes them) decoded. */
export function subjectOf(raw: string): string {
  const header = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1] ?? "";
  return header
    .replace(/\?=\r\n[ \t]+=\?/g, "?==?")
    .replace(/\r\n[ \t]+/g, " ")
    .replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, text: string) =>
      Buffer.from(
        text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        "latin1",
      ).toString("utf8"),
    );
}
