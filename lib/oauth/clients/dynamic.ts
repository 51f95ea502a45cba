import { OAuthClientMetadataSchema } from "@modelcontextprotocol/sdk/shared/auth.js";
import { recordAudit } from "@/lib/audit/record-audit";
import { sha256Hex, randomToken } from "@/lib/crypto";
import { db } from "@/lib/db";
import { newClientId } from "@/lib/oauth/clients/credentials";
import { clientInputSchema } from "@/lib/oauth/clients/schemas";
import { ALL_SCOPES, parseScopeString } from "@/lib/access/scopes";
import { OAuthError } from "@/lib/oauth/token/errors";

// RFC 7591 dynamic client registration, for MCP clients (docs/mcp.md). A registered client is
// public (no secret; PKCE required at authorize) and belongs to no organization until a member
// approves it on the consent screen: it then becomes a client of that member's organization,
// like one made under API settings, and goes through the same checks from then on.

/** Registrations nobody approved are removed after a day (registration needs no credentials). */
const UNCLAIMED_TTL_MS = 24 * 60 * 60 * 1000;

export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: "none";
  scope: string;
}

const invalidMetadata = (description: string) => new OAuthError("invalid_client_metadata", description);

/** Registers a public client from RFC 7591 client metadata; 400 invalid_client_metadata / invalid_redirect_uri. */
export async function registerPublicClient(metadata: unknown): Promise<RegisteredClient> {
  const parsed = OAuthClientMetadataSchema.safeParse(metadata);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidMetadata(`${issue?.path.join(".") || "metadata"}: ${issue?.message ?? "is invalid"}`);
  }
  const meta = parsed.data;
  const method = meta.token_endpoint_auth_method ?? "none";
  if (method !== "none") throw invalidMetadata("token_endpoint_auth_method must be none: registered clients are public and use PKCE");
  const unsupportedGrant = (meta.grant_types ?? []).find((g) => g !== "authorization_code" && g !== "refresh_token");
  if (unsupportedGrant) throw invalidMetadata(`grant_types: ${unsupportedGrant} is not supported`);
  if ((meta.response_types ?? ["code"]).some((r) => r !== "code")) throw invalidMetadata("response_types must be [code]");
  const requested = meta.scope?.trim() ? parseScopeString(meta.scope) : { scopes: [...ALL_SCOPES], unknown: [] };
  if (requested.unknown.length > 0) throw invalidMetadata(`Unknown scope: ${requested.unknown.join(" ")}`);

  // The same rules as clients made under API settings: https or loopback redirect URIs, a name.
  const input = clientInputSchema.safeParse({ name: meta.client_name ?? "MCP client", redirectUris: meta.redirect_uris, allowedScopes: requested.scopes });
  if (!input.success) {
    const issue = input.error.issues[0];
    const field = issue?.path[0] === "redirectUris" ? "invalid_redirect_uri" : "invalid_client_metadata";
    throw new OAuthError(field, `${issue?.path.join(".") || "metadata"} ${issue?.message ?? "is invalid"}`);
  }
  const now = new Date();
  await db.oAuthClient.deleteMany({ where: { orgId: null, createdAt: { lt: new Date(now.getTime() - UNCLAIMED_TTL_MS) } } });
  const client = await db.oAuthClient.create({
    data: {
      orgId: null,
      isPublic: true,
      name: input.data.name,
      clientId: newClientId(),
      // No secret is ever issued: the hash of a discarded random value, so no secret matches.
      secretHash: sha256Hex(randomToken(32)),
      secretHint: "",
      redirectUris: [...new Set(input.data.redirectUris)],
      allowedScopes: [...new Set(input.data.allowedScopes)],
    },
    select: { clientId: true, name: true, redirectUris: true, allowedScopes: true, createdAt: true },
  });
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    scope: client.allowedScopes.join(" "),
  };
}

/**
 * The organization a code for this client is issued in: the client's own, or, for a registered
 * client nobody approved yet, the approving user's organization, to which the client then
 * belongs (with an audit row). Null when the user has no single organization to give it (not a
 * member, or a member of several: such a user asks an admin for a client under API settings) or
 * another organization's member claimed it first.
 */
export async function approvingOrg(client: { id: string; orgId: string | null; name: string }, userId: string): Promise<string | null> {
  if (client.orgId) return client.orgId;
  const only = (await soleOrganization(userId))?.id;
  if (!only) return null;
  return db.$transaction(async (tx) => {
    const { count } = await tx.oAuthClient.updateMany({ where: { id: client.id, orgId: null }, data: { orgId: only, createdById: userId } });
    if (count === 0) {
      const bound = await tx.oAuthClient.findUnique({ where: { id: client.id }, select: { orgId: true } });
      return bound?.orgId === only ? only : null;
    }
    await recordAudit(tx, {
      orgId: only,
      actor: { type: "user", userId, oauthClientId: client.id },
      action: "oauth_client.created",
      targetType: "oauth_client",
      targetId: client.id,
      metadata: { name: client.name, registration: "dynamic" },
    });
    return only;
  });
}

/** The user's organization when they are a member of exactly one. */
async function soleOrganization(userId: string): Promise<{ id: string; name: string } | null> {
  const memberships = await db.membership.findMany({ where: { userId }, select: { org: { select: { id: true, name: true } } }, take: 2 });
  return memberships.length === 1 ? (memberships[0]?.org ?? null) : null;
}

/** The organization the consent screen asks about: the client's, or the one approving would bind it to. */
export async function consentOrganization(
  client: { orgId: string | null; orgName: string | null },
  userId: string,
): Promise<{ id: string; name: string } | null> {
  if (client.orgId) return { id: client.orgId, name: client.orgName ?? "" };
  return soleOrganization(userId);
}
