import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { portalApi } from "@/test/routes/portal-api";
import { createApiContext, createTestOrg, createTestPortal, createTestWorkflowStates } from "@/lib/test-support/fixtures";

const workflowEvents = (orgId: string) => db.event.findMany({ where: { orgId, type: "portal.workflow_changed" }, orderBy: { createdAt: "asc" } });

describe("POST /api/v1/portals/{portalId}/workflow", () => {
  it("sets a configured pair: 200 Portal, portal.workflow_changed and an audit row; the same state again fires nothing", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const [onboarding, review] = await createTestWorkflowStates(ctx.org.id);
    const portal = await createTestPortal({ orgId: ctx.org.id, workflowStateId: onboarding!.id });
    const api = portalApi(ctx.token);

    const res = await api.setWorkflow(portal.id, { workflowStateId: review!.id, workflowStateName: "In review" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: portal.id, workflowStateId: review!.id, workflowStateName: "In review" });
    expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).workflowStateId).toBe(review!.id);

    const again = await api.setWorkflow(portal.id, { workflowStateId: review!.id, workflowStateName: "In review" });
    expect(again.status).toBe(200);
    // Any configured state may follow any other (D13): back to the first one.
    expect((await api.setWorkflow(portal.id, { workflowStateId: onboarding!.id, workflowStateName: "Onboarding" })).status).toBe(200);

    expect((await workflowEvents(ctx.org.id)).map((e) => [e.portalId, e.data])).toEqual([
      [portal.id, { workflow_state_id: review!.id, workflow_state_name: "In review", previous_workflow_state_name: "Onboarding" }],
      [portal.id, { workflow_state_id: onboarding!.id, workflow_state_name: "Onboarding", previous_workflow_state_name: "In review" }],
    ]);
    const audit = await db.auditLog.findMany({ where: { orgId: ctx.org.id, portalId: portal.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => [a.action, a.metadata])).toEqual([
      ["portal.workflow_changed", { from: "Onboarding", to: "In review", workflow_state_id: review!.id }],
      ["portal.workflow_changed", { from: "In review", to: "Onboarding", workflow_state_id: onboarding!.id }],
    ]);
  });

  it.each([
    [{ workflowStateName: "In review" }, "workflowStateId"],
    [{ workflowStateId: "REVIEW" }, "workflowStateName"],
    [{ workflowStateId: "REVIEW", workflowStateName: "Complete" }, "workflowStateName"],
    [{ workflowStateId: "REVIEW", workflowStateName: " In review" }, "workflowStateName"],
    [{ workflowStateId: "FOREIGN", workflowStateName: "In review" }, "workflowStateId"],
    [{ workflowStateId: "00000000-0000-4000-8000-000000000000", workflowStateName: "In review" }, "workflowStateId"],
    [{ workflowStateId: 7, workflowStateName: "In review" }, "workflowStateId"],
  ])("refuses %j with 400 naming %s, changing nothing", async (template, field) => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const [, review] = await createTestWorkflowStates(ctx.org.id);
    const [foreign] = await createTestWorkflowStates((await createTestOrg()).id, ["In review"]);
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const body = JSON.parse(JSON.stringify(template).replace("REVIEW", review!.id).replace("FOREIGN", foreign!.id)) as object;
    const res = await portalApi(ctx.token).setWorkflow(portal.id, body);
    expect([res.status, res.json.error, res.json.error_description?.split(":")[0]]).toEqual([400, "invalid_request", field]);
    expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).workflowStateId).toBeNull();
    expect(await workflowEvents(ctx.org.id)).toEqual([]);
  });

  it("is 404 for another organization's portal or a malformed id", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const [state] = await createTestWorkflowStates(ctx.org.id);
    const other = await createTestOrg();
    const foreign = await createTestPortal({ orgId: other.id });
    for (const id of [foreign.id, "nope"]) {
      const res = await portalApi(ctx.token).setWorkflow(id, { workflowStateId: state!.id, workflowStateName: state!.name });
      expect([res.status, res.json.error]).toEqual([404, "not_found"]);
    }
    expect((await db.portal.findUniqueOrThrow({ where: { id: foreign.id } })).workflowStateId).toBeNull();
  });

  it("honours Idempotency-Key: a retry replays the answer and fires no second event", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const [, review] = await createTestWorkflowStates(ctx.org.id);
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const api = portalApi(ctx.token);
    const body = { workflowStateId: review!.id, workflowStateName: "In review" };
    const first = await api.setWorkflow(portal.id, body, { "Idempotency-Key": "wf-1" });
    const retry = await api.setWorkflow(portal.id, body, { "Idempotency-Key": "wf-1" });
    expect([first.status, retry.status, retry.headers.get("idempotent-replayed")]).toEqual([200, 200, "true"]);
    expect(retry.text).toBe(first.text);
    expect(await workflowEvents(ctx.org.id)).toHaveLength(1);
  });

  it("needs portal:write", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    const [state] = await createTestWorkflowStates(ctx.org.id);
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const res = await portalApi(ctx.token).setWorkflow(portal.id, { workflowStateId: state!.id, workflowStateName: state!.name });
    expect([res.status, res.json.error]).toEqual([403, "insufficient_scope"]);
  });
});
