import { apiBookkeepingPurge } from "@/inngest/functions/api-bookkeeping-purge";
import { eventsRelaySweep } from "@/inngest/functions/events-relay-sweep";

/** Every function the app serves at /api/inngest. */
export const functions = [eventsRelaySweep, apiBookkeepingPurge];
