import { requireOrg } from "@/lib/access/policy";
import { actorOf, userIdOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { encrypt } from "@/lib/crypto";
import { db } from "@/lib/db";
import { conflict } from "@/lib/errors";
import { requireApiAccess } from "@/lib/oauth/clients/api-access";
import type { OutboundPolicy } from "@/lib/outbound";
import { checkWebhookUrl } from "./check-url";
import { MAX_WEBHOOKS_PER_ORG } from "./config";
import { parseWebhookInput } from "./parse-input";
import { createWebhookBody } from "./schemas";
import { newWebhookSecret } from "./secret";
import { normalizeEvents, toWebhook } from "./to-webhook";
import { lockOrganization } from "@/lib/access/organizations";

export interface CreateWebhookOptions {
  viewer: Viewer;
  url: string;
  events: readonly string[];
  /** Tests only: the outbound policy the URL is checked against (default: from the environment). */
  outboundPolicy?: OutboundPolicy;
}

/** Creates a webhook (enabled) with a new secret; returns the API record, secret included. */
export async function createWebhook({ viewer, outboundPolicy, ...input }: CreateWebhookOptions) {
  requireOrg(viewer, "manageWebhooks");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  const { url, events } = parseWebhookInput(createWebhookBody, input);
  await checkWebhookUrl(url, outboundPolicy);
  const secret = newWebhookSecret();
  const row = await db.$transaction(async (tx) => {
    await requireApiAccess(tx, orgId);
    // The organization's row lock serialises creations, so two at once cannot make a 26th.
    await lockOrganization(tx, orgId);
    if ((await tx.webhook.count({ where: { orgId } })) >= MAX_WEBHOOKS_PER_ORG) {
      throw conflict(`An organization has at most ${MAX_WEBHOOKS_PER_ORG} webhooks`);
    }
    const created = await tx.webhook.create({
      data: {
        orgId,
        url,
        events: normalizeEvents(events),
        secretEncrypted: encrypt(secret),
        createdById: userIdOf(viewer),
      },
    });
    await recordAudit(tx, {
      orgId,
      actor,
      action: "webhook.created",
      targetType: "webhook",
      targetId: created.id,
      metadata: { url, events: created.events },
    });
    return created;
  });
  return toWebhook(row);
}
