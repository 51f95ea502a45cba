import { portalWebUrl } from "@/lib/links";
import { workflowStateOf, type PartnerLinkRecord, type PortalRecord, type PortalRow } from "./portal-record";
import type { z } from "zod";
import type { PortalResponse, PortalSchema } from "./schemas";

/** The Portal as sent (the schema's output: timestamps as ISO text): what exactJson sends. */
export type PortalBody = z.output<typeof PortalSchema>;

const PENDING_REASON: Record<string, string> = {
  verifying: "Verification of the partner id is in progress",
  not_found: "The partner does not know this customer id",
  credential_rejected: "The partner rejected the organization's credentials",
  error: "Verification failed",
  unlinked: "The partner id was cleared",
};

/** `partner_link` as the spec shows it, with verified_at as a Date (`Date`) or as sent (`string`). */
type PartnerLinkBody<D> = Omit<NonNullable<PortalBody["partner_link"]>, "verified_at"> & { verified_at?: D };

/**
 * `partner_link` as the spec shows it: tenant and name only when linked, a reason otherwise. Keys
 * in PartnerLinkSchema's order, as the schema's parse writes them: the list's response is not
 * re-parsed in production (lib/api/response.ts exactJson), so this builder's output is the response.
 */
function partnerLinkBody<D>(link: Omit<PartnerLinkRecord, "verifiedAt"> & { verifiedAt: D | null }): PartnerLinkBody<D> {
  const linked = link.status === "linked";
  return {
    status: link.status,
    ...(linked && link.tenantId !== null ? { tenant_id: link.tenantId } : {}),
    customer_id: link.customerId,
    ...(linked && link.displayName !== null ? { display_name: link.displayName } : {}),
    ...(link.verifiedAt ? { verified_at: link.verifiedAt } : {}),
    ...(linked ? {} : { error: link.error ?? PENDING_REASON[link.status] ?? link.status }),
  };
}

export const partnerLinkResponse = (link: PartnerLinkRecord): NonNullable<PortalResponse["partner_link"]> => partnerLinkBody(link);

/** A portal's fields with its timestamps as `D`: Dates (a PortalRecord) or as sent (a row of loadPortalPage). */
type PortalFields<D> = Omit<PortalRecord, "partnerLink" | "lastActivityAt" | "createdAt"> & {
  partnerLink: (Omit<PartnerLinkRecord, "verifiedAt"> & { verifiedAt: D | null }) | null;
  lastActivityAt: D | null;
  createdAt: D;
};

/** The Portal of the API (spec section 2 with D9), every field named, in PortalSchema's order. */
function portalBody<D>(p: PortalFields<D>) {
  return {
    id: p.id,
    name: p.name,
    org_id: p.orgId,
    tags: p.tags,
    workflowStateId: p.workflowState?.id ?? null,
    workflowStateName: p.workflowState?.name ?? null,
    archived: p.archived,
    externalSystemIds: p.externalSystemIds,
    partner_link: p.partnerLink ? partnerLinkBody(p.partnerLink) : null,
    created_at: p.createdAt,
    created_by: p.createdById,
    open_task_count: p.openTaskCount,
    done_task_count: p.doneTaskCount,
    last_activity_at: p.lastActivityAt,
    is_template: p.isTemplate,
    web_url: portalWebUrl(p.orgId, p.id),
  };
}

/** The Portal of the API from a record (timestamps as Dates; the schema's parse writes them). */
export const toPortalResponse = (p: PortalRecord): PortalResponse => portalBody(p);

/**
 * The Portal as sent (the schema's output: timestamps as ISO text), straight from a row of
 * loadPortalPage, for exactJson.
 */
export const toPortalBody = ({ workflowStateId, workflowStateName, ...row }: PortalRow): PortalBody =>
  portalBody({ ...row, workflowState: workflowStateOf(workflowStateId, workflowStateName) });
