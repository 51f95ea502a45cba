import { z } from "zod";
import { portalWhere, requirePortal } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { invalidField, isAppError, notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { MAX_TAG_LENGTH } from "./limits";
import { addPortalTags, updatePortal } from "./update-portal";

/** Portals changed at once: one page of the portal list. */
const MAX_PORTALS_AT_ONCE = 100;

/** One change for every selected portal. */
const PortalsChangeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("archive") }),
  z.object({ kind: z.literal("restore") }),
  z.object({
    kind: z.literal("addTag"),
    tag: z.string().trim().min(1, "Type the tag to add").max(MAX_TAG_LENGTH, `A tag has at most ${MAX_TAG_LENGTH} characters`),
  }),
  z.object({ kind: z.literal("workflowState"), workflowStateId: z.string().min(1, "Choose a workflow state"), workflowStateName: z.string() }),
]);
export type PortalsChange = z.infer<typeof PortalsChangeSchema>;

export interface PortalsChangeResult {
  /** Portals the change applied to (a portal already so counts: nothing was left to do). */
  changed: number;
  /** Portals it was refused for, with the reason (a portal's tag limit, a workflow state deleted meanwhile). */
  failed: { portalId: string; name: string; message: string }[];
}

/**
 * Archives, restores, tags or moves to a workflow state many portals at once (the portal list's
 * selection), each through the same domain function as one portal's change (updatePortal,
 * addPortalTags): the same checks, audit rows and events, one transaction per portal. Every
 * selected portal must be one the viewer may update (404 otherwise, nothing changed); a change
 * refused for one portal is reported with its reason and the others go on.
 */
export async function updatePortals({
  viewer,
  portalIds,
  change,
}: {
  viewer: Viewer;
  portalIds: string[];
  change: PortalsChange;
}): Promise<PortalsChangeResult> {
  const ids = [...new Set(portalIds)];
  if (ids.length === 0) throw invalidField("portal_ids", "Select at least one portal");
  if (ids.length > MAX_PORTALS_AT_ONCE) throw invalidField("portal_ids", `Select at most ${MAX_PORTALS_AT_ONCE} portals at once`);
  for (const id of ids) requirePortal(viewer, id, "update");
  const valid = PortalsChangeSchema.parse(change);
  const portals = ids.every(isUuid)
    ? await db.portal.findMany({ where: { AND: [portalWhere(viewer, "update"), { id: { in: ids } }] }, select: { id: true, name: true } })
    : [];
  if (portals.length !== ids.length) throw notFound("Portal");
  const names = new Map(portals.map((p) => [p.id, p.name]));

  const result: PortalsChangeResult = { changed: 0, failed: [] };
  for (const portalId of ids) {
    try {
      if (valid.kind === "addTag") await addPortalTags({ viewer, portalId, tags: [valid.tag] });
      else if (valid.kind === "workflowState")
        await updatePortal({ viewer, portalId, workflowStateId: valid.workflowStateId, workflowStateName: valid.workflowStateName });
      else await updatePortal({ viewer, portalId, archived: valid.kind === "archive" });
      result.changed++;
    } catch (error) {
      if (!isAppError(error)) throw error;
      result.failed.push({ portalId, name: names.get(portalId) ?? portalId, message: error.userMessage });
    }
  }
  return result;
}
