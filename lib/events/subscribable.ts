import type { EventType } from "./types";

// Without zod, so that client components can import it: zod builds its object schemas by probing
// `new Function`, which the pages' Content-Security-Policy reports as a violation in the browser.

/** The events a webhook may subscribe to (spec section 6); the others are internal. */
export const subscribableEventTypes = [
  "portal.created",
  "portal.workflow_changed",
  "file.uploaded",
  "file.signed",
  "task.created",
  "task.completed",
  "guest.invited",
] as const satisfies readonly EventType[];
export type SubscribableEventType = (typeof subscribableEventTypes)[number];
