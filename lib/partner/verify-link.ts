import { requirePortal, portalWhere } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { PartnerLinkStatus } from "@/lib/generated/prisma/client";
import { recordEvent } from "@/lib/events/record-event";
import { withChange } from "@/lib/events/with-change";
import { lockPortalRow } from "@/lib/portals/lock-portal";
import { partnerLinkResponse } from "@/lib/portals/to-response";
import type { PortalResponse } from "@/lib/portals/schemas";
import { isPartnerError } from "./connector";
import { connectorForOrg } from "./connection";

/** D26: a link verified longer ago than this is re-verified on the next file event or page view. */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

function isStale(link: { status: PartnerLinkStatus; verifiedAt: Date | null }, now = Date.now()): boolean {
  return link.status === "linked" && (link.verifiedAt === null || now - link.verifiedAt.getTime() > STALE_AFTER_MS);
}

export type VerificationResult = { status: Exclude<PartnerLinkStatus, "verifying" | "unlinked"> } | { status: "skipped"; reason: string };

/**
 * Asks the partner about the portal's customer id and writes the outcome to its link, with an
 * audit row: `linked` (tenant, name, verified_at), `not_found`, `credential_rejected`, or `error`
 * (the partner unreachable or answering nonsense). Only when the link still names `customerId`
 * and is not unlinked: a newer save or a clearing wins. Background work (the job of
 * `partner.link_changed`, the push of a stale link).
 */
export async function verifyPartnerLink({ orgId, portalId, customerId }: { orgId: string; portalId: string; customerId: string }): Promise<VerificationResult> {
  const link = await db.partnerLink.findFirst({ where: { orgId, portalId, portal: { deletedAt: null } } });
  if (!link || link.customerId !== customerId || link.status === "unlinked") return { status: "skipped", reason: "the link changed" };
  const connector = await connectorForOrg(orgId);
  if (!connector) return { status: "skipped", reason: "the partner integration is not connected" };

  let fields: { status: Exclude<PartnerLinkStatus, "verifying" | "unlinked">; tenantId: string | null; displayName: string | null; error: string | null };
  try {
    const outcome = await connector.verifyCustomer(customerId);
    if (outcome.status === "linked") {
      fields = { status: "linked", tenantId: outcome.customer.tenantId, displayName: outcome.customer.displayName, error: null };
    } else if (outcome.status === "not_found") {
      fields = { status: "not_found", tenantId: null, displayName: null, error: `The partner has no customer ${customerId}` };
    } else {
      fields = {
        status: "credential_rejected",
        tenantId: null,
        displayName: null,
        error: "The partner rejected the organization's credentials; reconnect in Settings, Partner integration",
      };
    }
  } catch (error) {
    if (!isPartnerError(error)) throw error;
    const status = error.kind === "credential_rejected" ? "credential_rejected" : "error";
    fields = { status, tenantId: null, displayName: null, error: error.message };
  }

  const written = await db.$transaction(async (tx) => {
    // Portal first (the lock order, lib/portals/lock-portal.ts), as the request that saves or
    // clears the partner id locks it before the link.
    if (!(await lockPortalRow(tx, { orgId, portalId }))) return false;
    const { count } = await tx.partnerLink.updateMany({
      where: { id: link.id, customerId, status: { not: "unlinked" } },
      data: { ...fields, verifiedAt: new Date() },
    });
    if (count === 0) return false;
    await recordAudit(tx, {
      orgId,
      portalId,
      actor: { type: "system" },
      action: `partner_link.${fields.status}`,
      targetType: "partner_link",
      targetId: portalId,
      metadata: {
        customer_id: customerId,
        ...(fields.displayName ? { display_name: fields.displayName, tenant_id: fields.tenantId } : {}),
        ...(fields.error ? { error: fields.error } : {}),
      },
    });
    return true;
  });
  return written ? { status: fields.status } : { status: "skipped", reason: "the link changed" };
}

/**
 * Marks a stale link `verifying` and starts its re-verification (D26), in one change with its
 * audit row and event. Returns whether it did. The caller holds nothing; the update's condition
 * makes two callers at once start one verification.
 */
async function startReverification(
  link: { id: string; orgId: string; portalId: string; customerId: string; verifiedAt: Date | null },
  viewer: Viewer | null,
): Promise<boolean> {
  const cutoff = new Date(Date.now() - STALE_AFTER_MS);
  return withChange(async (tx) => {
    if (!(await lockPortalRow(tx, { orgId: link.orgId, portalId: link.portalId }))) return false;
    const { count } = await tx.partnerLink.updateMany({
      where: { id: link.id, status: "linked", OR: [{ verifiedAt: null }, { verifiedAt: { lt: cutoff } }] },
      data: { status: "verifying", error: null },
    });
    if (count === 0) return false;
    await recordAudit(tx, {
      orgId: link.orgId,
      portalId: link.portalId,
      actor: viewer ? actorOf(viewer) : { type: "system" },
      action: "partner_link.verification_started",
      targetType: "partner_link",
      targetId: link.portalId,
      metadata: { customer_id: link.customerId, reason: "stale" },
    });
    await recordEvent(tx, {
      orgId: link.orgId,
      portalId: link.portalId,
      type: "partner.link_changed",
      data: { customer_id: link.customerId, previous_customer_id: link.customerId },
    });
    return true;
  });
}

export interface PortalPartnerLink {
  /** The organization has the partner integration connected: the portal can be linked. */
  connected: boolean;
  /** The link as the API shows it (`partner_link`); null when not connected or never given a partner id. */
  link: PortalResponse["partner_link"];
}

/**
 * The portal's partner link as the portal page shows it, after starting a re-verification when it
 * is stale (spec partner_link.status; D26).
 */
export async function refreshPartnerLinkIfStale({ viewer, portalId }: { viewer: Viewer; portalId: string }): Promise<PortalPartnerLink> {
  requirePortal(viewer, portalId, "view");
  const portal = await db.portal.findFirst({
    where: { ...portalWhere(viewer, "view"), id: portalId },
    select: { id: true, partnerLink: true, org: { select: { partnerConnection: { select: { status: true } } } } },
  });
  if (!portal) throw notFound("Portal");
  const connected = portal.org.partnerConnection?.status === "connected";
  const link = portal.partnerLink;
  if (!link || !connected) return { connected, link: null };
  if (isStale(link) && (await startReverification(link, viewer))) {
    return { connected, link: partnerLinkResponse({ ...link, status: "verifying", error: null }) };
  }
  return { connected, link: partnerLinkResponse(link) };
}

/** For the push: re-verifies a stale link in place (D26) and returns the link as it is then. */
export async function currentLinkForPush(orgId: string, portalId: string) {
  const link = await db.partnerLink.findFirst({ where: { orgId, portalId, portal: { deletedAt: null } } });
  if (link && isStale(link) && (await startReverification(link, null))) {
    await verifyPartnerLink({ orgId, portalId, customerId: link.customerId });
    return db.partnerLink.findFirst({ where: { orgId, portalId } });
  }
  return link;
}
