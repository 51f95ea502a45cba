// The outbox hands events to the job engine through a sender it is given, never by importing the
// engine's client: lib/ stays free of Inngest. inngest/client.ts registers the Inngest client's
// send() when it is loaded (instrumentation.ts loads it before starting the relay; the Inngest
// route and the cron sweep load it anyway).

/** One event as the job engine receives it: `id` is its idempotency key. */
export interface OutgoingEvent {
  id: string;
  name: string;
  data: Record<string, unknown>;
  /** Milliseconds since the epoch: when it happened. */
  ts?: number;
}

export type EventSender = (events: OutgoingEvent[]) => Promise<unknown>;

// On globalThis because Next.js dev reloads modules: the relay and the route share one sender.
const globalForSender = globalThis as unknown as { __eventSender?: EventSender };

export function setEventSender(sender: EventSender): void {
  globalForSender.__eventSender = sender;
}

/** The registered sender; a send without one fails, so the events stay pending. */
export function eventSender(): EventSender {
  const sender = globalForSender.__eventSender;
  if (!sender) return () => Promise.reject(new Error("No event sender is registered (inngest/client.ts registers one when loaded)"));
  return sender;
}
