import { events } from "@/inngest/client";

/** An OutboundEmail row to send; relayed from the outbox (lib/email/send-email.ts queueEmail). */
export const emailQueued = events["email.queued"];
