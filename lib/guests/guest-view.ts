import { fileWhere, portalWhere, requirePortal, taskWhere } from "@/lib/access/policy";
import { findUserViewer, type UserViewer, type Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";

// What a client (a guest) sees: their portals across organizations, and one portal's tasks for
// them and the files they may see. Only what a client may know: no tags, workflow states,
// external ids, other guests, history or other portals' anything.

/** Tasks a guest acts on: assigned to them, or to nobody (then any guest of the portal may). */
function forGuest(viewer: Viewer): Prisma.TaskWhereInput {
  if (viewer.kind !== "user" || viewer.role !== "guest") return {};
  return { OR: [{ assignees: { none: {} } }, { assignees: { some: { userId: viewer.userId } } }] };
}

const TASK_SELECT = {
  id: true,
  portalId: true,
  title: true,
  description: true,
  actionType: true,
  status: true,
  dueDate: true,
  completedAt: true,
} satisfies Prisma.TaskSelect;

/** Open tasks first by due date (undated last), then the rest by creation. */
const TASK_ORDER: Prisma.TaskOrderByWithRelationInput[] = [{ dueDate: { sort: "asc", nulls: "last" } }, { createdAt: "asc" }, { id: "asc" }];

/**
 * The guest home: every portal the user is a guest of, in every organization, each with its open
 * tasks for them (due first) and its latest files when they may list them. Organizations where
 * the user is a member are not listed here (they use the member views).
 */
export async function listGuestHome(userId: string) {
  const rows = await db.portalGuest.findMany({
    where: { userId, portal: { deletedAt: null } },
    select: { orgId: true },
    distinct: ["orgId"],
  });
  const viewers = (await Promise.all(rows.map((r) => findUserViewer(userId, r.orgId)))).filter((v): v is UserViewer => v?.role === "guest");
  const perOrg = await Promise.all(
    viewers.map(async (viewer) => {
      const [org, portals, tasks] = await Promise.all([
        db.organization.findUniqueOrThrow({ where: { id: viewer.orgId }, select: { id: true, name: true } }),
        db.portal.findMany({ where: portalWhere(viewer, "view"), select: { id: true, name: true }, orderBy: { name: "asc" } }),
        db.task.findMany({ where: { AND: [taskWhere(viewer, "viewTasks"), forGuest(viewer), { status: "Open" }] }, select: TASK_SELECT, orderBy: TASK_ORDER }),
      ]);
      const files = await Promise.all(
        portals.map((p) =>
          db.fileEntry.findMany({
            where: { AND: [fileWhere(viewer, "listFiles"), { portalId: p.id, isFolder: false }] },
            select: { id: true, name: true, size: true, registeredAt: true, signed: true },
            orderBy: [{ registeredAt: "desc" }, { id: "asc" }],
            take: 5,
          }),
        ),
      );
      return portals.map((p, i) => {
        const permissions = viewer.guestPortals.find((g) => g.portalId === p.id)!.permissions;
        return {
          orgId: org.id,
          orgName: org.name,
          portalId: p.id,
          portalName: p.name,
          permissions,
          openTasks: tasks.filter((t) => t.portalId === p.id),
          recentFiles: files[i]!,
        };
      });
    }),
  );
  return perOrg.flat().sort((a, b) => a.orgName.localeCompare(b.orgName) || a.portalName.localeCompare(b.portalName));
}

/**
 * One portal as its client sees it: the portal's name and organization, the tasks for them (open
 * ones due first, with a Fill Form's fields and their own answers), the files they may see and
 * what they may do with them. A guest of another portal (or none) gets not_found.
 */
export async function getGuestPortalView({ viewer, portalId }: { viewer: Viewer; portalId: string }) {
  requirePortal(viewer, portalId, "view");
  const portal = isUuid(portalId)
    ? await db.portal.findFirst({
        where: { AND: [portalWhere(viewer, "view"), { id: portalId }] },
        select: { id: true, name: true, org: { select: { name: true } } },
      })
    : null;
  if (!portal) throw notFound("Portal");
  const userId = viewer.kind === "user" ? viewer.userId : null;
  const [tasks, files] = await Promise.all([
    db.task.findMany({
      where: { AND: [taskWhere(viewer, "viewTasks"), forGuest(viewer), { portalId }] },
      select: {
        ...TASK_SELECT,
        documentFileId: true,
        review: true,
        reviewNote: true,
        formFields: { orderBy: { position: "asc" }, select: { id: true, label: true, kind: true, options: true, required: true } },
        answers: { where: { userId: userId ?? undefined }, select: { fieldId: true, value: true }, orderBy: { createdAt: "asc" } },
        files: {
          where: { status: "registered", deletedAt: null, isFolder: false },
          select: { id: true, name: true, signed: true },
          orderBy: [{ registeredAt: "asc" }, { id: "asc" }],
        },
      },
      orderBy: TASK_ORDER,
    }),
    db.fileEntry.findMany({
      where: { AND: [fileWhere(viewer, "listFiles"), { portalId, isFolder: false }] },
      select: { id: true, name: true, size: true, registeredAt: true, signed: true, uploadedById: true },
      orderBy: [{ registeredAt: "desc" }, { id: "asc" }],
    }),
  ]);
  const permissions =
    viewer.kind === "user" && viewer.role === "guest"
      ? viewer.guestPortals.find((g) => g.portalId === portalId)!.permissions
      : { view: true, download: true, upload: true, deleteOwnUploads: true };
  return {
    portal: { id: portal.id, name: portal.name, orgName: portal.org.name },
    permissions,
    openTasks: tasks.filter((t) => t.status === "Open"),
    doneTasks: tasks.filter((t) => t.status === "Done").sort((a, b) => (b.completedAt?.getTime() ?? 0) - (a.completedAt?.getTime() ?? 0)),
    files: files.map((f) => ({ ...f, mine: userId !== null && f.uploadedById === userId })),
  };
}

export type GuestPortalView = Awaited<ReturnType<typeof getGuestPortalView>>;
