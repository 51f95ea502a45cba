import { requirePortal } from "@/lib/access/policy";
import { type Actor, actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import type { Tx } from "@/lib/db";
import { applyExternalIdChanges } from "@/lib/external-ids/apply-changes";
import { applyPartnerIdChange } from "@/lib/external-ids/partner-link";
import { toExternalIdChanges } from "@/lib/external-ids/schemas";
import { externalIdConflictOf } from "@/lib/external-ids/unique-violation";
import { invalidField } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import type { Prisma } from "@/lib/generated/prisma/client";
import { changeWorkflowState } from "@/lib/workflow/change-workflow-state";
import { loadPortal } from "./get-portal";
import { MAX_TAGS } from "./limits";
import { lockPortal, type LockedPortal } from "./lock-portal";
import type { PortalRecord } from "./portal-record";
import { UpdatePortalBodySchema, type UpdatePortalBody } from "./schemas";

export type UpdatePortalInput = { viewer: Viewer; portalId: string } & UpdatePortalBody;

/**
 * Changes only the fields given (PATCH, and POST workflow with just the workflow pair). Each real
 * change writes its audit row, and its events, in the one transaction with the change: a
 * request that fails on any field (a taken external id, a wrong workflow pair) changes nothing.
 */
export async function updatePortal({ viewer, portalId, ...input }: UpdatePortalInput): Promise<PortalRecord> {
  requirePortal(viewer, portalId, "update");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  const body = UpdatePortalBodySchema.parse(input);
  try {
    await withChange(async (tx) => {
      const portal = await lockPortal(tx, { orgId, portalId });
      await updateFields(tx, { orgId, actor, portal, body });
      if (body.workflowStateId !== undefined && body.workflowStateName !== undefined) {
        await changeWorkflowState(tx, { orgId, actor, portal, workflowStateId: body.workflowStateId, workflowStateName: body.workflowStateName });
      }
      if (body.externalSystemIds !== undefined) {
        await updateExternalIds(tx, { orgId, actor, portalId, patch: body.externalSystemIds });
      }
    });
  } catch (error) {
    throw externalIdConflictOf(error);
  }
  return loadPortal(viewer, portalId, "update");
}

/**
 * Adds tags to the portal's own (the portal list's "Add tag" for many portals): the tags are read
 * and written under the portal's lock, so a change of its tags made meanwhile is kept, not
 * overwritten. The same limits, audit row and event as a change of tags through PATCH.
 */
export async function addPortalTags({ viewer, portalId, tags }: { viewer: Viewer; portalId: string; tags: string[] }): Promise<void> {
  requirePortal(viewer, portalId, "update");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  await withChange(async (tx) => {
    const portal = await lockPortal(tx, { orgId, portalId });
    const merged = [...new Set([...portal.tags, ...tags.map((t) => t.trim())])];
    if (merged.length > MAX_TAGS) throw invalidField("tags", `A portal has at most ${MAX_TAGS} tags; remove some from this one first`);
    await updateFields(tx, { orgId, actor, portal, body: UpdatePortalBodySchema.parse({ tags: merged }) });
  });
}

type Body = ReturnType<typeof UpdatePortalBodySchema.parse>;

/** name, tags and archived: one row update, one audit row per field that really changes. */
async function updateFields(tx: Tx, { orgId, actor, portal, body }: { orgId: string; actor: Actor; portal: LockedPortal; body: Body }) {
  const audits: { action: string; metadata: Prisma.InputJsonObject }[] = [];
  const data: { name?: string; tags?: string[]; archived?: boolean } = {};
  if (body.name !== undefined && body.name !== portal.name) {
    data.name = body.name;
    audits.push({ action: "portal.renamed", metadata: { from: portal.name, to: body.name } });
  }
  if (body.tags !== undefined && body.tags.join("\n") !== portal.tags.join("\n")) {
    data.tags = body.tags;
    audits.push({ action: "portal.tags_changed", metadata: { from: portal.tags, to: body.tags } });
  }
  if (body.archived !== undefined && body.archived !== portal.archived) {
    data.archived = body.archived;
    audits.push({ action: body.archived ? "portal.archived" : "portal.restored", metadata: {} });
  }
  if (audits.length === 0) return;
  await tx.portal.update({ where: { id: portal.id, orgId }, data });
  for (const { action, metadata } of audits) {
    await recordAudit(tx, { orgId, portalId: portal.id, actor, action, targetType: "portal", targetId: portal.id, metadata });
  }
}

/** The externalSystemIds merge, its audit row, and the partner link when `partner` changed. */
async function updateExternalIds(
  tx: Tx,
  { orgId, actor, portalId, patch }: { orgId: string; actor: Actor; portalId: string; patch: NonNullable<Body["externalSystemIds"]> },
): Promise<boolean> {
  const applied = await applyExternalIdChanges(tx, { orgId, portalId, changes: toExternalIdChanges(patch) });
  if (Object.keys(applied.set).length > 0 || applied.removed.length > 0) {
    await recordAudit(tx, {
      orgId,
      portalId,
      actor,
      action: "portal.external_ids_changed",
      targetType: "portal",
      targetId: portalId,
      metadata: { set: applied.set, removed: applied.removed },
    });
  }
  if (!applied.partner.touched) return false;
  return applyPartnerIdChange(tx, { orgId, portalId, actor, previous: applied.partner.previous, next: applied.partner.next });
}
