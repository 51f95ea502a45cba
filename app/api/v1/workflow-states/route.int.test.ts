import { describe, expect, it } from "vitest";
import { callRoute } from "@/test/routes/call-route";
import { db } from "@/lib/db";
import { createApiContext, createTestOrg, createTestWorkflowStates } from "@/lib/test-support/fixtures";
import { GET } from "./route";

const list = (token: string) => callRoute<unknown>(GET, { path: "/api/v1/workflow-states", token });

describe("GET /api/v1/workflow-states", () => {
  it("returns the organization's states (id and name) in their configured order, no other organization's", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    await createTestWorkflowStates((await createTestOrg()).id, ["Foreign"]);
    const review = await db.workflowState.create({ data: { orgId: ctx.org.id, name: "In review", position: 1 } });
    const onboarding = await db.workflowState.create({ data: { orgId: ctx.org.id, name: "Onboarding", position: 0 } });
    const done = await db.workflowState.create({ data: { orgId: ctx.org.id, name: "Complete", position: 2 } });

    const res = await list(ctx.token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      { id: onboarding.id, name: "Onboarding" },
      { id: review.id, name: "In review" },
      { id: done.id, name: "Complete" },
    ]);
  });

  it("is an empty array when none are configured, and needs portal:read", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    expect((await list(ctx.token)).json).toEqual([]);
    const writer = await createApiContext({ scopes: ["portal:write"] });
    const res = await list(writer.token);
    expect([res.status, (res.json as { error: string }).error]).toEqual([403, "insufficient_scope"]);
  });
});
