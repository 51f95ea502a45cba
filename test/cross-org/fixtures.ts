import { randomUUID } from "node:crypto";
import { encrypt } from "@/lib/crypto";
import { db } from "@/lib/db";
import { systemKeyOf } from "@/lib/external-ids/schemas";
import { createApiContext, createTestGuest, createTestPortal, createTestWorkflowStates } from "@/lib/test-support/fixtures";

// The two organizations of the cross-organization sweep: the victim with one of everything, and
// the attacker with a token of every scope and a portal and webhook of its own (to carry the
// victim's ids in bodies and nested paths).

export async function createVictim() {
  const api = await createApiContext();
  const orgId = api.org.id;
  const states = await createTestWorkflowStates(orgId);
  const portal = await createTestPortal({
    orgId,
    name: `Victim portal ${randomUUID()}`,
    tags: ["victim"],
    workflowStateId: states[0]!.id,
    createdById: api.user.id,
  });
  const template = await createTestPortal({ orgId, name: `Victim template ${randomUUID()}`, isTemplate: true });
  const externalId = await db.externalSystemId.create({
    data: { orgId, portalId: portal.id, system: "victim-crm", systemKey: systemKeyOf("victim-crm"), value: `ext-${randomUUID()}` },
  });
  const guest = await createTestGuest({ orgId, portalId: portal.id });
  const task = await db.task.create({ data: { orgId, portalId: portal.id, title: "Victim task", createdById: api.user.id } });
  const folder = await db.fileEntry.create({
    data: { orgId, portalId: portal.id, isFolder: true, name: "Victim folder", status: "registered", registeredAt: new Date() },
  });
  const pending = await db.fileEntry.create({
    data: {
      orgId,
      portalId: portal.id,
      name: "victim.pdf",
      extension: "pdf",
      size: 4,
      status: "pending",
      storageKey: `orgs/${orgId}/files/${randomUUID()}`,
      pendingExpiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  // A registered PDF (download, rename, move, delete, a Sign Document's document) and a file in
  // Recently deleted (restore).
  const file = await db.fileEntry.create({
    data: {
      orgId,
      portalId: portal.id,
      name: `victim-report-${randomUUID()}.pdf`,
      extension: "pdf",
      contentType: "application/pdf",
      size: 4,
      status: "registered",
      registeredAt: new Date(),
      storageKey: `orgs/${orgId}/files/${randomUUID()}`,
      uploadedById: api.user.id,
    },
  });
  const trashed = await db.fileEntry.create({
    data: {
      orgId,
      portalId: portal.id,
      name: `victim-deleted-${randomUUID()}.pdf`,
      extension: "pdf",
      size: 4,
      status: "registered",
      registeredAt: new Date(),
      deletedAt: new Date(),
      storageKey: `orgs/${orgId}/files/${randomUUID()}`,
    },
  });
  const memberInvitation = await db.memberInvitation.create({
    data: {
      orgId,
      email: `invitee-${randomUUID()}@test.example`,
      tokenHash: randomUUID(),
      invitedById: api.user.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  const portalGuest = await db.portalGuest.findFirstOrThrow({ where: { portalId: portal.id, userId: guest.id } });
  const webhook = await db.webhook.create({
    data: { orgId, url: "https://127.0.0.1:9/victim", events: ["portal.created"], secretEncrypted: encrypt(`whsec_${randomUUID()}`) },
  });
  const delivery = await db.webhookDelivery.create({ data: { webhookId: webhook.id, eventType: "portal.created", status: "failed", attemptCount: 4 } });
  // What the client did (the firm's inbox) and a message of the portal's thread.
  const inboxItem = await db.inboxItem.create({ data: { orgId, portalId: portal.id, kind: "upload", title: "victim-inbox.pdf", actorUserId: guest.id } });
  const message = await db.message.create({
    data: { orgId, portalId: portal.id, authorId: guest.id, fromFirm: false, body: `Victim message ${randomUUID()}` },
  });
  // A guest of another portal of the same organization (the web sweep's second caller).
  const outsider = await createOtherPortalGuest(orgId);
  return {
    ...api,
    orgId,
    states,
    portal,
    template,
    externalId,
    guest,
    portalGuest,
    memberInvitation,
    task,
    folder,
    pending,
    file,
    trashed,
    webhook,
    delivery,
    inboxItem,
    message,
    outsider,
  };
}
export type Victim = Awaited<ReturnType<typeof createVictim>>;

export async function createAttacker() {
  const api = await createApiContext();
  const orgId = api.org.id;
  const portal = await createTestPortal({ orgId, name: `Attacker portal ${randomUUID()}` });
  const task = await db.task.create({ data: { orgId, portalId: portal.id, title: "Attacker task", actionType: "SignDocument", createdById: api.user.id } });
  const webhook = await db.webhook.create({
    data: { orgId, url: "https://127.0.0.1:9/attacker", events: ["portal.created"], secretEncrypted: encrypt(`whsec_${randomUUID()}`) },
  });
  return { ...api, orgId, portal, task, webhook };
}
export type Attacker = Awaited<ReturnType<typeof createAttacker>>;

/** The victim's portal, its template and what is in them, and the organization's settings rows. */
function portalContents(v: Victim): string[] {
  return [
    v.portal.id,
    v.portal.name,
    v.template.id,
    v.template.name,
    v.task.id,
    v.folder.id,
    v.pending.id,
    v.file.id,
    v.file.name,
    v.trashed.id,
    v.trashed.name,
    v.portalGuest.id,
    v.memberInvitation.id,
    v.memberInvitation.email,
    v.webhook.id,
    v.delivery.id,
    v.guest.id,
    v.externalId.value,
  ];
}

/** Ids and names of the victim that must never appear in an answer to the attacker. */
export function victimSecrets(v: Victim): string[] {
  return [v.orgId, v.org.name, ...portalContents(v), v.user.id, v.inboxItem.id, v.message.id, v.message.body, ...v.states.map((s) => s.id)];
}

/**
 * A guest of another portal of the victim's organization: a user of the same organization, whose
 * access stops at its own portal.
 */
async function createOtherPortalGuest(orgId: string) {
  const portal = await createTestPortal({ orgId, name: `Other portal ${randomUUID()}` });
  // With the default permissions (view, download, upload): a refusal is about whose thing it is.
  const user = await createTestGuest({ orgId, portalId: portal.id });
  return { portal, user };
}

/**
 * What a guest of another portal of the organization must never see: the victim's portal and
 * everything in it, its templates, and the organization's settings (clients, grants, webhooks).
 * The organization itself, its members' names and its workflow states are the guest's to know.
 */
export function portalSecrets(v: Victim): string[] {
  return [...portalContents(v), v.client.id, v.client.clientId, v.grant.id];
}
