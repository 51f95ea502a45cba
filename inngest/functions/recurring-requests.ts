import { cron } from "inngest";
import { inngest } from "@/inngest/client";
import { systemViewer } from "@/lib/access/viewer";
import { materializeDueOccurrences, organizationsWithSchedules } from "@/lib/requests/materialize-occurrences";

/**
 * Hourly: every recurring request's period that is due gets its task (docs/requests.md). One step
 * per organization; an occurrence is claimed by its unique row in the transaction that makes its
 * task, so an overlapping run, a retried step or a second app instance makes nothing twice.
 */
export const recurringRequests = inngest.createFunction(
  { id: "recurring-requests", triggers: [cron("7 * * * *")], singleton: { mode: "skip" } },
  async ({ step }) => {
    const orgs = await step.run("organizations", () => organizationsWithSchedules());
    let created = 0;
    for (const orgId of orgs) created += (await step.run(`occurrences-${orgId}`, () => materializeDueOccurrences({ viewer: systemViewer(orgId) }))).created;
    return { organizations: orgs.length, created };
  },
);
