import { events, inngest, routedTrigger } from "@/inngest/client";
import { partnerPushRequestId } from "@/lib/events/types";
import { attemptPartnerPush, mayPlanPartnerPush, planPartnerPush, type PushedEvent } from "@/lib/partner/push";
import { verifyPartnerLink } from "@/lib/partner/verify-link";

// The partner integration's jobs (D25, D26): link verification, the planning of each
// push from its event, and each push's attempt series.

/** A saved (or stale) partner id: asks the partner and writes the link's outcome. */
export const partnerVerifyLink = inngest.createFunction(
  { id: "partner-verify-link", triggers: [events["partner.link_changed"]], retries: 5 },
  async ({ event, step }) => {
    const { org_id: orgId, portal_id: portalId, customer_id: customerId } = event.data;
    if (!portalId || customerId === null) return { status: "skipped", reason: "cleared" };
    return step.run("verify", () => verifyPartnerLink({ orgId, portalId, customerId }));
  },
);

const pushed = [
  routedTrigger("file.uploaded", "partner"),
  routedTrigger("file.signed", "partner"),
  routedTrigger("task.created", "partner"),
  routedTrigger("task.completed", "partner"),
  routedTrigger("portal.workflow_changed", "partner"),
  routedTrigger("portal.unlinked", "partner"),
];

/**
 * Plans a push for each event of a linked portal (its row, once per entity and event) and starts
 * its attempt series under an id that makes a repeated start one run. Runs beside the webhooks.
 * It starts only where the relay found the partner integration connected (routedTrigger); a run
 * that starts anyway (an event relayed without routes) without it returns before any step (mayPlanPartnerPush: one query, one
 * call); the check stays true for a run whose step planned a push, so a replay never skips it.
 */
export const partnerPushPlan = inngest.createFunction({ id: "partner-push-plan", triggers: pushed, retries: 5 }, async ({ event, step }) => {
  const data = event.data as Record<string, unknown> & { event_id: string; org_id: string; portal_id: string | null };
  const nothingToDo = await mayPlanPartnerPush({ orgId: data.org_id, portalId: data.portal_id, eventId: data.event_id });
  if (nothingToDo) return nothingToDo;
  const planned = await step.run("plan", () =>
    planPartnerPush({ orgId: data.org_id, portalId: data.portal_id, eventId: data.event_id, event: event.name as PushedEvent, data }),
  );
  if ("skipped" in planned) return planned;
  await step.sendEvent("start-push", { id: partnerPushRequestId(planned.pushId), name: "partner/push.requested", data: { push_id: planned.pushId } });
  return planned;
});

/**
 * One push's attempt series (D26), an explicit loop: `attempt-n`, and on a transient failure
 * `sleep-n` (1 min doubling, capped at 1 h) until the window's last attempt, which marks the file
 * failed (Resend starts a new series). Partner failures are outcomes, not errors; the engine's
 * retries cover infrastructure faults only.
 */
export const partnerPush = inngest.createFunction(
  { id: "partner-push", triggers: [events["partner/push.requested"]], concurrency: { key: "event.data.push_id", limit: 1 }, retries: 5 },
  async ({ event, step }) => {
    const pushId = event.data.push_id;
    for (let n = 1; ; n++) {
      const result = await step.run(`attempt-${n}`, () => attemptPartnerPush({ pushId, number: n }));
      if (result.outcome !== "retry") return result;
      await step.sleep(`sleep-${n}`, `${result.delaySeconds}s`);
    }
  },
);
