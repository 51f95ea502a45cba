import { requireOrg } from "@/lib/access/policy";
import { actorOf, userIdOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { invalidRequest } from "@/lib/errors";
import { requireApiAccess } from "@/lib/oauth/clients/api-access";
import { newClientId, newClientSecret } from "@/lib/oauth/clients/credentials";
import { clientInputSchema, type ClientInput } from "@/lib/oauth/clients/schemas";

/** Creates an OAuth client; the secret is returned here once and never again. */
export async function createOAuthClient({ viewer, ...input }: { viewer: Viewer } & ClientInput) {
  requireOrg(viewer, "manageOAuthClients");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  const parsed = clientInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidRequest(`${issue?.path.join(".") || "input"} ${issue?.message ?? "is invalid"}`);
  }
  const { secret, secretHash, secretHint } = newClientSecret();
  const client = await db.$transaction(async (tx) => {
    await requireApiAccess(tx, orgId);
    const created = await tx.oAuthClient.create({
      data: {
        orgId,
        name: parsed.data.name,
        clientId: newClientId(),
        secretHash,
        secretHint,
        redirectUris: [...new Set(parsed.data.redirectUris)],
        allowedScopes: [...new Set(parsed.data.allowedScopes)],
        createdById: userIdOf(viewer),
      },
      omit: { secretHash: true },
    });
    await recordAudit(tx, { orgId, actor, action: "oauth_client.created", targetType: "oauth_client", targetId: created.id, metadata: { name: created.name } });
    return created;
  });
  return { client, secret };
}
