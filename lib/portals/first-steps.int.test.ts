import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { isAppError } from "@/lib/errors";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { createTask } from "@/lib/tasks/create-task";
import { getPortalFirstSteps } from "./first-steps";

describe("getPortalFirstSteps", () => {
  it("counts guests, tasks and shared files; folders, pending uploads, deleted files and deleted tasks are not counted", async () => {
    const org = await createTestOrg();
    const member = await createTestUser({ orgId: org.id, role: "member" });
    const viewer = await getUserViewer(member.id, org.id);
    const portal = await createTestPortal({ orgId: org.id });
    const other = await createTestPortal({ orgId: org.id });

    expect(await getPortalFirstSteps({ viewer, portalId: portal.id })).toEqual({ guests: 0, tasks: 0, files: 0 });

    const file = (data: { isFolder?: boolean; status?: "pending" | "registered"; deletedAt?: Date | null; portalId?: string }) =>
      db.fileEntry.create({
        data: {
          orgId: org.id,
          portalId: data.portalId ?? portal.id,
          name: `f-${Math.random()}`,
          isFolder: data.isFolder ?? false,
          status: data.status ?? "registered",
          deletedAt: data.deletedAt ?? null,
        },
      });
    await file({ isFolder: true });
    await file({ status: "pending" });
    await file({ deletedAt: new Date() });
    await file({ portalId: other.id });
    await createTestGuest({ orgId: org.id, portalId: other.id });
    expect(await getPortalFirstSteps({ viewer, portalId: portal.id })).toEqual({ guests: 0, tasks: 0, files: 0 });

    await file({});
    await createTestGuest({ orgId: org.id, portalId: portal.id });
    const { taskId } = await createTask({ viewer, portalId: portal.id, title: "Bank statements" });
    expect(await getPortalFirstSteps({ viewer, portalId: portal.id })).toEqual({ guests: 1, tasks: 1, files: 1 });

    await db.task.update({ where: { id: taskId }, data: { deletedAt: new Date() } });
    expect((await getPortalFirstSteps({ viewer, portalId: portal.id })).tasks).toBe(0);
  });

  it("is the firm's: a guest of the portal is refused, another organization's member does not know the portal", async () => {
    const org = await createTestOrg();
    const portal = await createTestPortal({ orgId: org.id });
    const guest = await createTestGuest({ orgId: org.id, portalId: portal.id });
    const guestViewer = await getUserViewer(guest.id, org.id);
    const refusal = await getPortalFirstSteps({ viewer: guestViewer, portalId: portal.id }).catch((e: unknown) => e);
    expect(isAppError(refusal) && refusal.code).toBe("forbidden");

    const elsewhere = await createTestOrg();
    const stranger = await createTestUser({ orgId: elsewhere.id, role: "admin" });
    const strangerViewer = await getUserViewer(stranger.id, elsewhere.id);
    const unknown = await getPortalFirstSteps({ viewer: strangerViewer, portalId: portal.id }).catch((e: unknown) => e);
    expect(isAppError(unknown) && unknown.code).toBe("not_found");
  });
});
