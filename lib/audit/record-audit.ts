import type { Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Actor } from "@/lib/access/viewer";

export interface AuditInput {
  orgId: string;
  portalId?: string | null;
  actor: Actor;
  /** Dotted verb, e.g. `portal.created`, `file.uploaded`, `oauth_client.secret_rotated`. */
  action: string;
  targetType: string;
  targetId?: string | null;
  metadata?: Prisma.InputJsonValue;
}

/** Writes the audit row of a change (D28) in the caller's transaction, beside the change itself. */
export async function recordAudit(tx: Tx, input: AuditInput): Promise<void> {
  await tx.auditLog.create({ data: auditRow(input) });
}

/**
 * The audit row's columns (but its id and time), as recordAudit writes them; a change written as
 * one statement (createPortal, createTask) inserts the same values from
 * `jsonb_to_recordset($n::jsonb) AS a${AUDIT_RECORDSET}` over `JSON.stringify([row])`.
 */
export function auditRow(input: AuditInput) {
  return {
    orgId: input.orgId,
    portalId: input.portalId ?? null,
    actorType: input.actor.type,
    actorUserId: input.actor.type === "user" ? input.actor.userId : null,
    oauthClientId: input.actor.type === "user" ? (input.actor.oauthClientId ?? null) : null,
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId ?? null,
    metadata: input.metadata,
  };
}

export const AUDIT_RECORDSET = `("orgId" uuid, "portalId" uuid, "actorType" "ActorType", "actorUserId" uuid, "oauthClientId" uuid, "action" text, "targetType" text, "targetId" text, "metadata" jsonb)`;
