import { eventType, Inngest, type ClientOptions } from "inngest";
import { env } from "@/lib/env";
import { setEventSender } from "@/lib/events/sender";
import { relayedEventSchemas, type EventType } from "@/lib/events/types";
import { inngestSettings } from "@/inngest/config";

/**
 * Node's own fetch for the SDK's requests to the engine (the relay's event sends, API calls). In
 * the server, the global fetch is Next.js's wrapper (its data cache, deduplication and tracing
 * spans), which none of these requests use and which was about two thirds of the SDK's CPU per send;
 * Next.js keeps the function it wrapped as `_nextOriginalFetch`. Looked up per call: Next.js
 * installs its wrapper after this module may have loaded.
 */
function engineFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const global = globalThis.fetch as typeof fetch & { _nextOriginalFetch?: typeof fetch };
  return (global._nextOriginalFetch ?? global)(input, init);
}

// Configuration is read when the SDK needs it, not at import: `next build` imports the route that
// serves the functions without a runtime environment, and env() throws when DATABASE_URL is
// missing. Inngest 4.24 reads these options through `this.options.<name>` on every send and
// request (components/Inngest.js: eventKey, eventBaseUrl, apiBaseUrl, mode, signingKey), so
// getters keep them current; inngest/client.test.ts fails if an upgrade starts copying them.
const options = {
  id: "client-portals",
  get isDev() {
    return inngestSettings(env()).isDev;
  },
  get baseUrl() {
    return inngestSettings(env()).baseUrl;
  },
  get eventKey() {
    return inngestSettings(env()).eventKey;
  },
  get signingKey() {
    return inngestSettings(env()).signingKey;
  },
  fetch: engineFetch,
} satisfies ClientOptions;

export const inngest = new Inngest(options);

// The outbox relay (lib/events) sends through this client; lib/ never imports it.
setEventSender((events) => inngest.send(events));

/**
 * Typed events (Inngest 4 `eventType`, replacing v3's EventSchemas), for triggers:
 * `inngest.createFunction({ id, triggers: [events["file.uploaded"]] }, ({ event }) => ...)`.
 * Made from the one event catalogue (lib/events/types.ts), as the outbox's types are: one entry
 * per catalogue type, enforced by `satisfies` (a type added there fails to compile until it is
 * here). Written out because a generic mapping loses each event's data type. The relay sends
 * plain payloads so that a row written under an older schema still leaves the outbox (see
 * lib/events/dispatch-pending-events.ts).
 */
export const events = {
  "portal.created": eventType("portal.created", { schema: relayedEventSchemas["portal.created"] }),
  "portal.workflow_changed": eventType("portal.workflow_changed", { schema: relayedEventSchemas["portal.workflow_changed"] }),
  "file.uploaded": eventType("file.uploaded", { schema: relayedEventSchemas["file.uploaded"] }),
  "file.signed": eventType("file.signed", { schema: relayedEventSchemas["file.signed"] }),
  "task.created": eventType("task.created", { schema: relayedEventSchemas["task.created"] }),
  "task.completed": eventType("task.completed", { schema: relayedEventSchemas["task.completed"] }),
  "guest.invited": eventType("guest.invited", { schema: relayedEventSchemas["guest.invited"] }),
  "email.queued": eventType("email.queued", { schema: relayedEventSchemas["email.queued"] }),
  "portal.unlinked": eventType("portal.unlinked", { schema: relayedEventSchemas["portal.unlinked"] }),
  "partner.link_changed": eventType("partner.link_changed", { schema: relayedEventSchemas["partner.link_changed"] }),
  "task.reminders_changed": eventType("task.reminders_changed", { schema: relayedEventSchemas["task.reminders_changed"] }),
  "webhook/delivery.requested": eventType("webhook/delivery.requested", { schema: relayedEventSchemas["webhook/delivery.requested"] }),
  "partner/push.requested": eventType("partner/push.requested", { schema: relayedEventSchemas["partner/push.requested"] }),
  "bulk-request/send.requested": eventType("bulk-request/send.requested", { schema: relayedEventSchemas["bulk-request/send.requested"] }),
  "message.posted": eventType("message.posted", { schema: relayedEventSchemas["message.posted"] }),
} satisfies { [T in EventType]: { name: T } };

/**
 * A trigger on a relayed event for a consumer that has work only where the relay found some: the
 * envelope's `routes` (lib/events/types.ts). `!= false`, not `== true`: an event without `routes`
 * (relayed by a version before it) starts the run in the local executor, whose own check
 * (mayHaveDeliveries, mayPlanPartnerPush) then decides; on Inngest's engine unverified
 * (docs/operations.md, "Events routed at hand-off").
 */
export function routedTrigger<T extends keyof typeof events>(type: T, route: "webhooks" | "partner" | "clients") {
  return { event: events[type], if: `event.data.routes.${route} != false` };
}
