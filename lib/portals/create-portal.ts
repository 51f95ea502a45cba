import { randomUUID } from "node:crypto";
import { requireOrg } from "@/lib/access/policy";
import { actorOf, userIdOf, type Viewer } from "@/lib/access/viewer";
import { AUDIT_COLUMNS, AUDIT_VALUES, auditJson, auditRecordset, auditRow, recordAudit } from "@/lib/audit/record-audit";
import { invalidRequest } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import { kickEventRelay } from "@/lib/events/event-relay";
import { OUTBOX_COLUMNS, OUTBOX_VALUES, outboxJson, outboxRecordset, outboxRow, recordEvent } from "@/lib/events/record-event";
import { applyTemplateRequests } from "@/lib/requests/template-requests";
import { fixedStatement, plusInterval, rows, sql, textArray } from "@/lib/sql";
import { copyFolderTree } from "./copy-folder-tree";
import { loadPortal } from "./get-portal";
import type { PortalRecord } from "./portal-record";
import { requireTemplatePlan } from "./require-template-plan";
import { CreatePortalBodySchema, type CreatePortalBody } from "./schemas";

export type CreatePortalInput = { viewer: Viewer } & CreatePortalBody;

/**
 * Creates a portal (or a template), optionally from a template of the organization: its folder
 * tree, its tags (merged with the given ones) and its workflow state are copied, and its request
 * list made (lib/requests/template-requests.ts). The portal, its audit row, `portal.created` and
 * the request list's tasks (each with its own `task.created`) commit together.
 */
export async function createPortal({ viewer, ...input }: CreatePortalInput): Promise<PortalRecord> {
  requireOrg(viewer, "createPortal");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  const { name, tags = [], isTemplate = false, templateId } = CreatePortalBodySchema.parse(input);
  const createdById = userIdOf(viewer);
  if (templateId === undefined) return createPlainPortal({ orgId, actor, name, tags: [...new Set(tags)], isTemplate, createdById });

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
    if (template && !isTemplate) await applyTemplateRequests({ viewer, templateId: template.id, portalId: portal.id });
    return portal.id;
  });
  return loadPortal(viewer, portalId, "update");
}

/**
 * A portal without a template: the portal, its audit row and `portal.created` as one statement
 * (instead of six round trips, BEGIN to COMMIT and the portal read back), and its record
 * made from what was written, as loadPortal would read it right after: a new portal has no
 * workflow state, external ids, partner link, tasks or activity yet.
 */
async function createPlainPortal({
  orgId,
  actor,
  name,
  tags,
  isTemplate,
  createdById,
}: {
  orgId: string;
  actor: ReturnType<typeof actorOf>;
  name: string;
  tags: string[];
  isTemplate: boolean;
  createdById: string | null;
}): Promise<PortalRecord> {
  const portalId = randomUUID();
  const createdAt = new Date();
  const audit = auditRow({
    orgId,
    portalId,
    actor,
    action: "portal.created",
    targetType: "portal",
    targetId: portalId,
    metadata: { name, tags, is_template: isTemplate, template_id: null, folders_copied: 0 },
  });
  const event = outboxRow({ orgId, portalId, type: "portal.created", data: { created_by: createdById, tags, is_template: isTemplate } });
  await rows(insertPortalStatement({ portalId, orgId, name, tags, isTemplate, createdById, createdAt, audit: auditJson([audit]), event: outboxJson([event]) }));
  kickEventRelay();
  return {
    id: portalId,
    orgId,
    name,
    tags,
    archived: false,
    isTemplate,
    workflowState: null,
    externalSystemIds: {},
    partnerLink: null,
    openTaskCount: 0,
    doneTaskCount: 0,
    lastActivityAt: null,
    createdAt,
    createdById,
  };
}

/**
 * One statement, atomic on its own (in an open ambient transaction, part of it): the three inserts
 * commit together or not at all. The audit and outbox rows reference the portal inserted beside
 * them; foreign keys are checked at the end of the statement, when it exists. Timestamps are UTC
 * wall time (an ISO string cast to timestamp), as Prisma writes them. Compiled once
 * (fixedStatement): every portal created through the API sends it.
 */
const insertPortalStatement = fixedStatement(
  ["portalId", "orgId", "name", "tags", "isTemplate", "createdById", "createdAt", "audit", "event"],
  (p: {
    portalId: string;
    orgId: string;
    name: string;
    tags: string[];
    isTemplate: boolean;
    createdById: string | null;
    createdAt: Date;
    audit: string;
    event: string;
  }) =>
    sql
      .with("portal", (db) =>
        db.insertInto("Portal").values({
          id: p.portalId,
          orgId: p.orgId,
          name: p.name,
          tags: textArray(p.tags),
          workflowStateId: null,
          archived: false,
          isTemplate: p.isTemplate,
          createdById: p.createdById,
          createdAt: p.createdAt,
          updatedAt: p.createdAt,
        }),
      )
      .with("audit", (db) =>
        db
          .insertInto("AuditLog")
          .columns(AUDIT_COLUMNS)
          .expression(
            db
              .selectFrom(auditRecordset(p.audit))
              .select((eb) => [eb.fn<string>("gen_random_uuid").as("id"), ...AUDIT_VALUES, eb.cast(eb.val(p.createdAt), "timestamp(3)").as("createdAt")]),
          ),
      )
      .insertInto("Event")
      .columns(OUTBOX_COLUMNS)
      .expression((db) =>
        db
          .selectFrom(outboxRecordset(p.event))
          .select((eb) => [
            ...OUTBOX_VALUES,
            eb.cast(eb.val(p.createdAt), "timestamp(3)").as("occurredAt"),
            plusInterval(eb.cast(eb.val(p.createdAt), "timestamp(3)"), eb.ref("e.n"), "millisecond").as("createdAt"),
          ]),
      ),
  // Key lookups and inserts: no plan of it depends on a table's size.
  { prepared: true },
);
