import { describe, expect, it } from "vitest";
import { getUserViewer, systemViewer, viewerFromApiAuth } from "@/lib/access/viewer";
import { ALL_SCOPES } from "@/lib/access/scopes";
import { updatePortal } from "@/lib/portals/update-portal";
import { createTask } from "@/lib/tasks/create-task";
import { createTestClient, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { createForeignAdmin } from "@/lib/test-support/outcome";
import { listPortalAudit } from "./list-audit";

// A portal's history (D28): newest first, paginated, filterable by kind, with who and through which app.

describe("listPortalAudit", () => {
  it("lists the portal's rows newest first with the person and the OAuth app, a page at a time, filtered by kind", async () => {
    const org = await createTestOrg();
    const admin = await createTestUser({ orgId: org.id, role: "admin", name: "Ada Admin" });
    const viewer = await getUserViewer(admin.id, org.id);
    const portal = await createTestPortal({ orgId: org.id });
    const elsewhere = await createTestPortal({ orgId: org.id });
    const { client } = await createTestClient({ orgId: org.id, actorUserId: admin.id, name: "Zapier" });
    const api = viewerFromApiAuth({ orgId: org.id, userId: admin.id, role: "admin", clientId: client.clientId, clientRecordId: client.id, scopes: ALL_SCOPES });

    // A few milliseconds apart, so that "newest first" is decided by the time, not the id.
    const tick = () => new Promise((r) => setTimeout(r, 5));
    await updatePortal({ viewer, portalId: portal.id, tags: ["web"] });
    await tick();
    const { taskId } = await createTask({ viewer: api, portalId: portal.id, title: "Through the API" });
    await tick();
    await createTask({ viewer: systemViewer(org.id), portalId: portal.id, title: "By the system" });
    await tick();
    await updatePortal({ viewer, portalId: portal.id, name: "Renamed" });
    await updatePortal({ viewer, portalId: elsewhere.id, tags: ["other portal"] });

    const all = await listPortalAudit({ viewer, portalId: portal.id });
    expect(all.next).toBeNull();
    expect(all.items.map((r) => [r.action, r.actor?.name ?? null, r.client?.name ?? null])).toEqual([
      ["portal.renamed", "Ada Admin", null],
      ["task.created", null, null],
      ["task.created", "Ada Admin", "Zapier"],
      ["portal.tags_changed", "Ada Admin", null],
    ]);
    expect(all.items[2]).toMatchObject({ targetType: "task", targetId: taskId, actor: { id: admin.id, email: admin.email }, client: { id: client.id } });

    const first = await listPortalAudit({ viewer, portalId: portal.id, limit: 3 });
    expect(first.items).toHaveLength(3);
    const second = await listPortalAudit({ viewer, portalId: portal.id, limit: 3, cursor: first.next! });
    expect([...first.items, ...second.items].map((r) => r.id)).toEqual(all.items.map((r) => r.id));
    expect(second.next).toBeNull();

    expect((await listPortalAudit({ viewer, portalId: portal.id, kind: "task" })).items.map((r) => r.action)).toEqual(["task.created", "task.created"]);
    await expect(listPortalAudit({ viewer, portalId: portal.id, kind: "webhook" as "task" })).rejects.toThrow(
      "kind: One of portal, file, folder, task, guest, partner_link",
    );
    const foreign = await createForeignAdmin();
    await expect(listPortalAudit({ viewer: foreign, portalId: portal.id })).rejects.toThrow("Portal not found");
  });
});
