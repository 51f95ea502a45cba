import { randomUUID } from "node:crypto";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import type { MemberRole, Plan } from "@/lib/generated/prisma/client";
import { issueAccessToken } from "@/lib/oauth/access-token";
import { createOAuthClient } from "@/lib/oauth/clients/create-client";
import { ALL_SCOPES, type Scope } from "@/lib/access/scopes";

// Integration-test fixtures: every test makes its own organization, so tests sharing one database
// never see each other's rows.

export async function createTestOrg(options: { plan?: Plan; apiEnabled?: boolean; name?: string } = {}) {
  return db.organization.create({
    data: { name: options.name ?? `Test org ${randomUUID()}`, plan: options.plan ?? "enterprise", apiEnabled: options.apiEnabled ?? true },
  });
}

export async function createTestUser(options: { orgId?: string; role?: MemberRole; name?: string; passwordHash?: string } = {}) {
  const user = await db.user.create({
    data: { email: `user-${randomUUID()}@test.example`, name: options.name ?? "Test User", passwordHash: options.passwordHash ?? null },
  });
  if (options.orgId) await db.membership.create({ data: { orgId: options.orgId, userId: user.id, role: options.role ?? "member" } });
  return user;
}

export async function createTestClient(options: { orgId: string; actorUserId: string; scopes?: Scope[]; redirectUris?: string[]; name?: string }) {
  return createOAuthClient({
    viewer: await getUserViewer(options.actorUserId, options.orgId),
    name: options.name ?? "Test client",
    redirectUris: options.redirectUris ?? ["https://client.example/callback"],
    allowedScopes: options.scopes ?? ALL_SCOPES,
  });
}

/**
 * An organization (enterprise, API on unless told otherwise), an admin, a client and an access
 * token of a grant with the given scopes: what an API test needs to call /api/v1.
 */
export async function createApiContext(options: { scopes?: Scope[]; plan?: Plan; apiEnabled?: boolean } = {}) {
  const org = await createTestOrg({ plan: options.plan, apiEnabled: options.apiEnabled });
  const user = await createTestUser({ orgId: org.id, role: "admin" });
  // The client is made while API access is on; the organization's plan is applied afterwards.
  if (options.plan !== undefined || options.apiEnabled !== undefined) {
    await db.organization.update({ where: { id: org.id }, data: { plan: "enterprise", apiEnabled: true } });
  }
  const { client, secret } = await createTestClient({ orgId: org.id, actorUserId: user.id });
  if (options.plan !== undefined || options.apiEnabled !== undefined) {
    await db.organization.update({ where: { id: org.id }, data: { plan: options.plan ?? "enterprise", apiEnabled: options.apiEnabled ?? true } });
  }
  const scopes = options.scopes ?? ALL_SCOPES;
  const grant = await db.oAuthGrant.create({ data: { orgId: org.id, clientId: client.id, userId: user.id, scopes } });
  const { token } = await issueAccessToken({ grantId: grant.id, userId: user.id, orgId: org.id, clientId: client.clientId, scopes });
  return { org, user, client, secret, grant, token };
}

/** Workflow states of an organization, in the order given (positions 0, 1, ...). */
export async function createTestWorkflowStates(orgId: string, names: string[] = ["Onboarding", "In review", "Complete"]) {
  const states = [];
  for (const [position, name] of names.entries()) states.push(await db.workflowState.create({ data: { orgId, name, position } }));
  return states;
}

/** A portal (or template) written directly, for tests that need one to exist. */
export async function createTestPortal(options: {
  orgId: string;
  name?: string;
  tags?: string[];
  isTemplate?: boolean;
  archived?: boolean;
  workflowStateId?: string | null;
  createdById?: string | null;
  deletedAt?: Date | null;
}) {
  return db.portal.create({
    data: {
      orgId: options.orgId,
      name: options.name ?? `Portal ${randomUUID()}`,
      tags: options.tags ?? [],
      isTemplate: options.isTemplate ?? false,
      archived: options.archived ?? false,
      workflowStateId: options.workflowStateId ?? null,
      createdById: options.createdById ?? null,
      deletedAt: options.deletedAt ?? null,
    },
  });
}

/** The organization has the partner integration connected (credentials are not used by these tests). */
export async function connectTestPartner(orgId: string) {
  return db.partnerConnection.create({ data: { orgId, status: "connected", credentialsEncrypted: "test-credentials" } });
}

/** A user who is a guest of a portal (invited and accepted), written directly. */
export async function createTestGuest(options: { orgId: string; portalId: string; name?: string; email?: string }) {
  const user = await db.user.create({
    data: { email: options.email ?? `guest-${randomUUID()}@test.example`, name: options.name ?? "Test Guest" },
  });
  await db.portalGuest.create({
    data: { orgId: options.orgId, portalId: options.portalId, userId: user.id, permissions: {}, acceptedAt: new Date() },
  });
  return user;
}
