import { db } from "@/lib/db";

/** Active tasks of a portal with their assignees, oldest first. */
export async function listPortalTasks({ orgId, portalId }: { orgId: string; portalId: string }) {
  return db.task.findMany({
    where: { orgId, portalId, deletedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { assignees: true },
  });
}
