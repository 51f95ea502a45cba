import { describe, expect, it } from "vitest";
import { fileWhere, mayOrg, portalWhere, requireAnyPortal, requireOrg, requirePortal, requireRole, taskWhere } from "./policy";
import { systemViewer, viewerFromApiAuth, type UserViewer } from "./viewer";

// The pure half of the policy (the matrix test runs it against the database through every entry point).

const ORG = "00000000-0000-4000-8000-000000000001";
const P1 = "00000000-0000-4000-8000-0000000000a1";
const P2 = "00000000-0000-4000-8000-0000000000a2";
const all = { view: true, download: true, upload: true, deleteOwnUploads: true };

const guest = (permissions: Partial<typeof all> = {}): UserViewer => ({
  kind: "user",
  orgId: ORG,
  userId: "guest-user",
  role: "guest",
  guestPortals: [{ portalId: P1, permissions: { ...all, ...permissions } }],
  client: null,
});
const member: UserViewer = { kind: "user", orgId: ORG, userId: "member-user", role: "member", guestPortals: [], client: null };
const client = (scopes: Parameters<typeof viewerFromApiAuth>[0]["scopes"]) =>
  viewerFromApiAuth({ orgId: ORG, userId: "u", role: "admin", clientId: "cpc_x", clientRecordId: "c", scopes });

const codeOf = (fn: () => void) => {
  try {
    fn();
    return "ok";
  } catch (e) {
    return (e as { code: string }).code;
  }
};

describe("requirePortal", () => {
  it("a guest: not_found outside their portals, forbidden without the permission or without view", () => {
    expect(codeOf(() => requirePortal(guest(), P2, "view"))).toBe("not_found");
    expect(codeOf(() => requirePortal(guest(), P1, "upload"))).toBe("ok");
    expect(codeOf(() => requirePortal(guest({ upload: false }), P1, "upload"))).toBe("forbidden");
    expect(codeOf(() => requirePortal(guest({ view: false }), P1, "upload"))).toBe("forbidden");
    expect(codeOf(() => requirePortal(guest({ download: false }), P1, "download"))).toBe("forbidden");
    expect(codeOf(() => requirePortal(guest({ deleteOwnUploads: false }), P1, "deleteOwnUpload"))).toBe("forbidden");
    for (const action of ["update", "invite", "manageTasks", "viewHistory"] as const)
      expect(codeOf(() => requirePortal(guest(), P1, action))).toBe("forbidden");
  });

  it("names the thing asked for in a not_found", () => {
    expect(() => requirePortal(guest(), P2, "manageTasks", "Task")).toThrow("Task not found");
  });

  it("members and the system may everything; an OAuth client needs the action's scope, and cannot do web-only actions", () => {
    for (const action of ["view", "update", "download", "viewHistory"] as const) expect(codeOf(() => requirePortal(member, P2, action))).toBe("ok");
    expect(codeOf(() => requirePortal(systemViewer(ORG), P2, "update"))).toBe("ok");
    expect(codeOf(() => requirePortal(client(["portal:write"]), P1, "update"))).toBe("ok");
    expect(codeOf(() => requirePortal(client(["portal:read"]), P1, "update"))).toBe("insufficient_scope");
    expect(codeOf(() => requirePortal(client(["portal:read"]), P1, "download"))).toBe("forbidden");
  });

  it("the insufficient_scope error carries the RFC 6750 challenge", () => {
    expect(() => requirePortal(client([]), P1, "upload")).toThrow(
      expect.objectContaining({ headers: { "WWW-Authenticate": 'Bearer error="insufficient_scope", scope="file:upload"' } }),
    );
  });
});

describe("requireRole, requireOrg, requireAnyPortal", () => {
  it("ranks guest < member < admin", () => {
    expect(codeOf(() => requireRole(member, "member"))).toBe("ok");
    expect(codeOf(() => requireRole(member, "admin"))).toBe("forbidden");
    expect(codeOf(() => requireRole(guest(), "member"))).toBe("forbidden");
  });

  it("webhooks are the admins' on the web and need webhook:manage through the API; OAuth clients are never managed through the API", () => {
    expect(codeOf(() => requireOrg(member, "manageWebhooks"))).toBe("forbidden");
    // A member's token with webhook:manage manages webhooks (the admin chose the client's scopes).
    expect(codeOf(() => requireOrg({ ...client(["webhook:manage"]), role: "member" }, "manageWebhooks"))).toBe("ok");
    expect(codeOf(() => requireOrg({ ...client(["portal:read"]), role: "member" }, "manageWebhooks"))).toBe("insufficient_scope");
    expect(codeOf(() => requireOrg(client(["webhook:manage"]), "manageWebhooks"))).toBe("ok");
    expect(codeOf(() => requireOrg(client(["portal:read"]), "manageWebhooks"))).toBe("insufficient_scope");
    expect(codeOf(() => requireOrg(client(["webhook:manage"]), "manageOAuthClients"))).toBe("forbidden");
  });

  it("a list across portals only checks the client's scope; the where-builder narrows it", () => {
    expect(codeOf(() => requireAnyPortal(guest({ view: false }), "view"))).toBe("ok");
    expect(codeOf(() => requireAnyPortal(client(["file:list"]), "view"))).toBe("insufficient_scope");
  });
});

describe("where-builders", () => {
  it("members: every active portal of their organization", () => {
    expect(portalWhere(member)).toEqual({ orgId: ORG, deletedAt: null });
  });

  it("guests: the portals where they have view and the action's permission", () => {
    const viewer: UserViewer = {
      ...guest(),
      guestPortals: [
        { portalId: P1, permissions: all },
        { portalId: P2, permissions: { ...all, upload: false } },
      ],
    };
    expect(portalWhere(viewer)).toEqual({ orgId: ORG, deletedAt: null, id: { in: [P1, P2] } });
    expect(portalWhere(viewer, "upload")).toEqual({ orgId: ORG, deletedAt: null, id: { in: [P1] } });
    expect(portalWhere(viewer, "update")).toEqual({ orgId: ORG, deletedAt: null, id: { in: [] } });
  });

  it("files: registered and not deleted; a guest deletes only their own uploads", () => {
    expect(fileWhere(member)).toEqual({ orgId: ORG, status: "registered", deletedAt: null, portal: { orgId: ORG, deletedAt: null } });
    expect(fileWhere(guest(), "deleteOwnUpload")).toMatchObject({ uploadedById: "guest-user", portal: { id: { in: [P1] } } });
    expect(fileWhere(member, "deleteOwnUpload")).not.toHaveProperty("uploadedById");
  });

  it("tasks: not deleted, in the portals the viewer may see tasks of", () => {
    expect(taskWhere(guest({ view: false }))).toEqual({ orgId: ORG, deletedAt: null, portal: { orgId: ORG, deletedAt: null, id: { in: [] } } });
  });
});

describe("mayOrg", () => {
  it("answers what requireOrg decides, without throwing", () => {
    expect(mayOrg(member, "manageWebhooks")).toBe(false);
    expect(mayOrg({ ...member, role: "admin" }, "manageWebhooks")).toBe(true);
    expect(mayOrg(guest(), "createPortal")).toBe(false);
  });
});
