import { recordAudit } from "@/lib/audit/record-audit";
import type { Actor } from "@/lib/access/viewer";
import type { Tx } from "@/lib/db";
import { recordEvent } from "@/lib/events/record-event";
import { PARTNER_ID } from "./schemas";

/** Statuses after which saving the same partner id again starts a new verification. */
const RETRYABLE = new Set(["not_found", "credential_rejected", "error", "unlinked"]);

const customerId = (value: string | null) => (value !== null && PARTNER_ID.test(value) ? value : null);

/**
 * Follows a PATCH that touched the `partner` id (spec partner_link.status), when the organization
 * has the partner integration connected: a new id (or the same id after a failed verification)
 * sets the link to `verifying`; a cleared id sets it to `unlinked`. Records `partner.link_changed`
 * (and `portal.unlinked` when cleared) for the partner work, and the audit row, in the caller's
 * transaction. Returns whether events were recorded.
 */
export async function applyPartnerIdChange(
  tx: Tx,
  { orgId, portalId, actor, previous, next }: { orgId: string; portalId: string; actor: Actor; previous: string | null; next: string | null },
): Promise<boolean> {
  const connected = await tx.partnerConnection.findFirst({ where: { orgId, status: "connected" }, select: { id: true } });
  if (!connected) return false;
  const link = await tx.partnerLink.findFirst({ where: { orgId, portalId } });

  if (next !== null) {
    if (next === previous && link && link.customerId === next && !RETRYABLE.has(link.status)) return false;
    const fields = { status: "verifying" as const, customerId: next, tenantId: null, displayName: null, error: null };
    const verifiedAt = link?.customerId === next ? link.verifiedAt : null;
    await tx.partnerLink.upsert({
      where: { portalId, orgId },
      create: { orgId, portalId, ...fields },
      update: { ...fields, verifiedAt },
    });
    await recordAudit(tx, {
      orgId,
      portalId,
      actor,
      action: "partner_link.verification_started",
      targetType: "partner_link",
      targetId: portalId,
      metadata: { customer_id: next },
    });
    await recordEvent(tx, { orgId, portalId, type: "partner.link_changed", data: { customer_id: next, previous_customer_id: customerId(previous) } });
    return true;
  }

  const cleared = customerId(previous);
  if (cleared === null) return false;
  const fields = { status: "unlinked" as const, tenantId: null, displayName: null, error: "The partner id was cleared" };
  await tx.partnerLink.upsert({
    where: { portalId, orgId },
    create: { orgId, portalId, customerId: cleared, ...fields },
    update: fields,
  });
  await recordAudit(tx, {
    orgId,
    portalId,
    actor,
    action: "partner_link.unlinked",
    targetType: "partner_link",
    targetId: portalId,
    metadata: { customer_id: cleared },
  });
  await recordEvent(tx, { orgId, portalId, type: "partner.link_changed", data: { customer_id: null, previous_customer_id: cleared } });
  await recordEvent(tx, { orgId, portalId, type: "portal.unlinked", data: { customer_id: cleared } });
  return true;
}
