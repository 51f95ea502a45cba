import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { createTestOrg, createTestPortal, createTestUser, createTestWorkflowStates } from "@/lib/test-support/fixtures";
import { createForeignAdmin, outcomeOf } from "@/lib/test-support/outcome";
import { listWorkflowStates } from "./list-workflow-states";
import { addWorkflowState, removeWorkflowState, renameWorkflowState, reorderWorkflowStates } from "./manage-workflow-states";

// Workflow states in the organization settings: names trimmed, 1-100 characters and
// unique in any case; reorder takes the full list; removal refused while a portal uses the state.

async function adminOrg() {
  const org = await createTestOrg();
  const admin = await createTestUser({ orgId: org.id, role: "admin" });
  const viewer = await getUserViewer(admin.id, org.id);
  const states = await createTestWorkflowStates(org.id, ["Onboarding", "In review", "Complete"]);
  return { org, viewer, states };
}

/** Everything a workflow state change could touch: the states and the audit rows. */
async function snapshot(orgId: string) {
  const states = await db.workflowState.findMany({ where: { orgId }, orderBy: { id: "asc" } });
  const audit = await db.auditLog.count({ where: { orgId } });
  const portals = await db.portal.findMany({ where: { orgId }, select: { id: true, workflowStateId: true }, orderBy: { id: "asc" } });
  return { states, audit, portals };
}

const auditOf = (orgId: string) =>
  db.auditLog.findMany({ where: { orgId }, orderBy: { createdAt: "asc" }, select: { action: true, targetId: true, metadata: true } });

describe("addWorkflowState", () => {
  it("adds a trimmed name at the end of the order with an audit row", async () => {
    const { org, viewer } = await adminOrg();
    const state = await addWorkflowState({ viewer, name: "  Waiting on client  " });
    expect(state.name).toBe("Waiting on client");
    expect((await listWorkflowStates({ viewer })).map((s) => s.name)).toEqual(["Onboarding", "In review", "Complete", "Waiting on client"]);
    expect(await auditOf(org.id)).toEqual([{ action: "workflow_state.created", targetId: state.id, metadata: { name: "Waiting on client" } }]);
  });

  it("refuses an empty, a too long or a taken name (in any case) and changes nothing", async () => {
    const { org, viewer } = await adminOrg();
    const before = await snapshot(org.id);
    expect(await outcomeOf(addWorkflowState({ viewer, name: "   " }))).toBe("invalid_request: name: Enter a name for the workflow state");
    expect(await outcomeOf(addWorkflowState({ viewer, name: "x".repeat(101) }))).toBe("invalid_request: name: Use at most 100 characters");
    expect(await outcomeOf(addWorkflowState({ viewer, name: " in REVIEW " }))).toBe('conflict: name: A workflow state named "In review" already exists');
    expect(await snapshot(org.id)).toEqual(before);
    // 100 characters is allowed, and another organization's names do not count.
    expect((await addWorkflowState({ viewer, name: "y".repeat(100) })).name).toHaveLength(100);
    const foreign = await createForeignAdmin();
    expect((await addWorkflowState({ viewer: foreign, name: "In review" })).name).toBe("In review");
  });

  it("gives the first state of an organization position 0, and two concurrent adds of one name make one state", async () => {
    const org = await createTestOrg();
    const admin = await createTestUser({ orgId: org.id, role: "admin" });
    const viewer = await getUserViewer(admin.id, org.id);
    await addWorkflowState({ viewer, name: "First" });
    const results = await Promise.allSettled([addWorkflowState({ viewer, name: "Same" }), addWorkflowState({ viewer, name: "SAME" })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason.code).toBe("conflict");
    const states = await db.workflowState.findMany({ where: { orgId: org.id }, orderBy: { position: "asc" } });
    expect(states.map((s) => s.position)).toEqual([0, 1]);
  });
});

describe("renameWorkflowState", () => {
  it("renames, keeps the portals on it, and allows a change of case of its own name", async () => {
    const { org, viewer, states } = await adminOrg();
    const portal = await createTestPortal({ orgId: org.id });
    await db.portal.update({ where: { id: portal.id }, data: { workflowStateId: states[1]!.id } });
    await renameWorkflowState({ viewer, workflowStateId: states[1]!.id, name: " Review " });
    await renameWorkflowState({ viewer, workflowStateId: states[1]!.id, name: "REVIEW" });
    // The same name again is no change and no audit row.
    await renameWorkflowState({ viewer, workflowStateId: states[1]!.id, name: "REVIEW" });
    expect((await listWorkflowStates({ viewer })).map((s) => s.name)).toEqual(["Onboarding", "REVIEW", "Complete"]);
    expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).workflowStateId).toBe(states[1]!.id);
    expect((await auditOf(org.id)).map((a) => a.metadata)).toEqual([
      { from: "In review", to: "Review" },
      { from: "Review", to: "REVIEW" },
    ]);
  });

  it("refuses another state's name, a bad name and an unknown or foreign state, changing nothing", async () => {
    const { org, viewer, states } = await adminOrg();
    const foreign = await adminOrg();
    const before = await snapshot(org.id);
    expect(await outcomeOf(renameWorkflowState({ viewer, workflowStateId: states[0]!.id, name: "complete" }))).toBe(
      'conflict: name: A workflow state named "Complete" already exists',
    );
    expect(await outcomeOf(renameWorkflowState({ viewer, workflowStateId: states[0]!.id, name: "" }))).toBe(
      "invalid_request: name: Enter a name for the workflow state",
    );
    expect(await outcomeOf(renameWorkflowState({ viewer, workflowStateId: foreign.states[0]!.id, name: "Mine" }))).toBe("not_found: Workflow state not found");
    expect(await outcomeOf(renameWorkflowState({ viewer, workflowStateId: "not-a-uuid", name: "Mine" }))).toBe("not_found: Workflow state not found");
    expect(await snapshot(org.id)).toEqual(before);
  });
});

describe("reorderWorkflowStates", () => {
  it("puts the states in the given order with one audit row; the same order changes nothing", async () => {
    const { org, viewer, states } = await adminOrg();
    const [a, b, c] = states.map((s) => s.id);
    expect(await reorderWorkflowStates({ viewer, workflowStateIds: [c!, a!, b!] })).toEqual({ changed: true });
    expect((await listWorkflowStates({ viewer })).map((s) => s.name)).toEqual(["Complete", "Onboarding", "In review"]);
    expect(await reorderWorkflowStates({ viewer, workflowStateIds: [c!, a!, b!] })).toEqual({ changed: false });
    expect(await auditOf(org.id)).toEqual([{ action: "workflow_state.reordered", targetId: org.id, metadata: { from: [a, b, c], to: [c, a, b] } }]);
  });

  it("refuses anything but the full list of the organization's states (400) and changes nothing", async () => {
    const { org, viewer, states } = await adminOrg();
    const foreign = await adminOrg();
    const [a, b, c] = states.map((s) => s.id) as [string, string, string];
    const before = await snapshot(org.id);
    const refused = async (workflowStateIds: string[]) => outcomeOf(reorderWorkflowStates({ viewer, workflowStateIds }));
    expect(await refused([a, b])).toBe("invalid_request: workflowStateIds: List all 3 workflow states of the organization, in the new order");
    expect(await refused([a, b, c, a])).toBe("invalid_request: workflowStateIds: Lists a workflow state more than once");
    expect(await refused([a, b, foreign.states[0]!.id])).toBe(
      `invalid_request: workflowStateIds: Not workflow states of this organization: ${foreign.states[0]!.id}`,
    );
    expect(await refused([a, b, c, "nope"])).toBe("invalid_request: workflowStateIds: Not workflow states of this organization: nope");
    expect(await refused([])).toBe("invalid_request: workflowStateIds: List all 3 workflow states of the organization, in the new order");
    expect(await snapshot(org.id)).toEqual(before);
  });
});

describe("removeWorkflowState", () => {
  it("removes an unused state with an audit row; a permanently deleted portal does not hold it", async () => {
    const { org, viewer, states } = await adminOrg();
    const gone = await createTestPortal({ orgId: org.id, name: "Deleted" });
    await db.portal.update({ where: { id: gone.id }, data: { workflowStateId: states[2]!.id, deletedAt: new Date() } });
    await removeWorkflowState({ viewer, workflowStateId: states[2]!.id });
    expect((await listWorkflowStates({ viewer })).map((s) => s.name)).toEqual(["Onboarding", "In review"]);
    expect((await db.portal.findUniqueOrThrow({ where: { id: gone.id } })).workflowStateId).toBeNull();
    expect(await auditOf(org.id)).toEqual([{ action: "workflow_state.deleted", targetId: states[2]!.id, metadata: { name: "Complete" } }]);
    expect(await outcomeOf(removeWorkflowState({ viewer, workflowStateId: states[2]!.id }))).toBe("not_found: Workflow state not found");
  });

  it("refuses while a portal, an archived portal or a template uses it, naming them, and changes nothing", async () => {
    const { org, viewer, states } = await adminOrg();
    const use = async (name: string, extra: { archived?: boolean; isTemplate?: boolean } = {}) => {
      const p = await createTestPortal({ orgId: org.id, name, ...extra });
      await db.portal.update({ where: { id: p.id }, data: { workflowStateId: states[0]!.id } });
    };
    await use("Template", { isTemplate: true });
    const before = await snapshot(org.id);
    expect(await outcomeOf(removeWorkflowState({ viewer, workflowStateId: states[0]!.id }))).toBe(
      'conflict: Workflow state "Onboarding" is used by the portal "Template": move them to another state first',
    );
    await use("Archived", { archived: true });
    await use("Active");
    expect(await outcomeOf(removeWorkflowState({ viewer, workflowStateId: states[0]!.id }))).toBe(
      'conflict: Workflow state "Onboarding" is used by 3 portals "Active", "Archived", "Template": move them to another state first',
    );
    expect((await snapshot(org.id)).states).toEqual(before.states);
    expect((await snapshot(org.id)).audit).toBe(before.audit);
  });

  it("names ten portals and then how many more", async () => {
    const { org, viewer, states } = await adminOrg();
    for (let i = 0; i < 13; i++) {
      const p = await createTestPortal({ orgId: org.id, name: `Client ${String(i).padStart(2, "0")}` });
      await db.portal.update({ where: { id: p.id }, data: { workflowStateId: states[1]!.id } });
    }
    const names = Array.from({ length: 10 }, (_, i) => `"Client ${String(i).padStart(2, "0")}"`).join(", ");
    expect(await outcomeOf(removeWorkflowState({ viewer, workflowStateId: states[1]!.id }))).toBe(
      `conflict: Workflow state "In review" is used by 13 portals ${names} and 3 more: move them to another state first`,
    );
    expect(await db.workflowState.count({ where: { orgId: org.id } })).toBe(3);
  });
});
