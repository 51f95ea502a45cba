import { eventType } from "inngest";
import { relayedEventSchemas } from "@/lib/events/types";

/** An OutboundEmail row to send; relayed from the outbox (lib/email/send-email.ts queueEmail). */
export const emailQueued = eventType("email.queued", { schema: relayedEventSchemas["email.queued"] });
