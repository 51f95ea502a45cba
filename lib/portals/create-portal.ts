import { requireOrg } from "@/lib/access/policy";
import { actorOf, userIdOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { invalidRequest } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import { recordEvent } from "@/lib/events/record-event";
import { copyFolderTree } from "./copy-folder-tree";
import { loadPortal } from "./get-portal";
import type { PortalRecord } from "./portal-record";
import { requireTemplatePlan } from "./require-template-plan";
import { CreatePortalBodySchema, type CreatePortalBody } from "./schemas";

export type CreatePortalInput = { viewer: Viewer } & CreatePortalBody;

/**
 * Creates a portal (or a template), optionally from a template of the organization: its folder
 * tree, its tags (merged with the given ones) and its workflow state are copied. The portal, its
 * audit row and `portal.created` commit together.
 */
export async function createPortal({ viewer, ...input }: CreatePortalInput): Promise<PortalRecord> {
  requireOrg(viewer, "createPortal");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  const { name, tags = [], isTemplate = false, templateId } = CreatePortalBodySchema.parse(input);
  const createdById = userIdOf(viewer);

  const portalId = await withChange(async (tx) => {
    let template: { id: string; tags: string[]; workflowStateId: string | null } | null = null;
    if (templateId !== undefined) {
      await requireTemplatePlan(tx, orgId);
      template = await tx.portal.findFirst({
        where: { id: templateId, orgId, isTemplate: true, deletedAt: null },
        select: { id: true, tags: true, workflowStateId: true },
      });
      if (!template) throw invalidRequest("templateId: Not a template of this organization");
    }
    const allTags = [...new Set([...(template?.tags ?? []), ...tags])];
    const portal = await tx.portal.create({
      data: { orgId, name, tags: allTags, isTemplate, workflowStateId: template?.workflowStateId ?? null, createdById },
      select: { id: true },
    });
    const folders = template ? await copyFolderTree(tx, { orgId, fromPortalId: template.id, toPortalId: portal.id }) : 0;
    await recordAudit(tx, {
      orgId,
      portalId: portal.id,
      actor,
      action: "portal.created",
      targetType: "portal",
      targetId: portal.id,
      metadata: { name, tags: allTags, is_template: isTemplate, template_id: template?.id ?? null, folders_copied: folders },
    });
    await recordEvent(tx, { orgId, portalId: portal.id, type: "portal.created", data: { created_by: createdById, tags: allTags, is_template: isTemplate } });
    return portal.id;
  });
  return loadPortal(viewer, portalId, "update");
}
