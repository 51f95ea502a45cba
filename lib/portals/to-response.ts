import { portalWebUrl } from "./links";
import type { PartnerLinkRecord, PortalRecord } from "./portal-record";
import type { PortalResponse } from "./schemas";

const PENDING_REASON: Record<string, string> = {
  verifying: "Verification of the partner id is in progress",
  not_found: "The partner does not know this customer id",
  credential_rejected: "The partner rejected the organization's credentials",
  error: "Verification failed",
  unlinked: "The partner id was cleared",
};

/** `partner_link` as the spec shows it: tenant and name only when linked, a reason otherwise. */
export function partnerLinkResponse(link: PartnerLinkRecord): NonNullable<PortalResponse["partner_link"]> {
  return {
    status: link.status,
    customer_id: link.customerId,
    ...(link.status === "linked"
      ? { ...(link.tenantId !== null ? { tenant_id: link.tenantId } : {}), ...(link.displayName !== null ? { display_name: link.displayName } : {}) }
      : { error: link.error ?? PENDING_REASON[link.status] ?? link.status }),
    ...(link.verifiedAt ? { verified_at: link.verifiedAt } : {}),
  };
}

/** The Portal of the API (spec section 2 with D9). */
export function toPortalResponse(p: PortalRecord): PortalResponse {
  return {
    id: p.id,
    name: p.name,
    org_id: p.orgId,
    tags: p.tags,
    workflowStateId: p.workflowState?.id ?? null,
    workflowStateName: p.workflowState?.name ?? null,
    archived: p.archived,
    externalSystemIds: p.externalSystemIds,
    partner_link: p.partnerLink ? partnerLinkResponse(p.partnerLink) : null,
    created_at: p.createdAt,
    created_by: p.createdById,
    open_task_count: p.openTaskCount,
    done_task_count: p.doneTaskCount,
    last_activity_at: p.lastActivityAt,
    is_template: p.isTemplate,
    web_url: portalWebUrl(p.orgId, p.id),
  };
}
