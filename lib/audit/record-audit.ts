import type { Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { jsonRecordset } from "@/lib/sql";
import { actorOf, type Actor, type Viewer } from "@/lib/access/viewer";

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

/** The audit row of a change the viewer made to their organization itself (one of its settings). */
export function recordOrganizationChange(tx: Tx, viewer: Viewer, action: string, metadata?: Prisma.InputJsonValue): Promise<void> {
  return recordAudit(tx, { orgId: viewer.orgId, actor: actorOf(viewer), action, targetType: "organization", targetId: viewer.orgId, metadata });
}

/**
 * The audit row's columns (but its id and time), as recordAudit writes them; a change written as
 * one statement (createPortal, createTask) inserts the same values from `auditRecordset([row])`.
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

/** The columns an audit row is inserted with from `auditRecordset`: its id, AUDIT_VALUES, its time. */
export const AUDIT_COLUMNS = [
  "id",
  "orgId",
  "portalId",
  "actorType",
  "actorUserId",
  "oauthClientId",
  "action",
  "targetType",
  "targetId",
  "metadata",
  "createdAt",
] as const;
/** The recordset's columns in AUDIT_COLUMNS order (between the id and the time). */
export const AUDIT_VALUES = [
  "a.orgId",
  "a.portalId",
  "a.actorType",
  "a.actorUserId",
  "a.oauthClientId",
  "a.action",
  "a.targetType",
  "a.targetId",
  "a.metadata",
] as const;

/** The JSON text `auditRecordset` reads audit rows from. */
export const auditJson = (rows: ReturnType<typeof auditRow>[]): string => JSON.stringify(rows);

/**
 * Audit rows as a table `a` of a statement (lib/sql.ts jsonRecordset), to insert them with the
 * change they record; given as rows, or as their JSON text (`auditJson`: a statement compiled once,
 * lib/sql.ts fixedStatement, takes the text as its value).
 */
export const auditRecordset = (rows: ReturnType<typeof auditRow>[] | string) =>
  jsonRecordset(typeof rows === "string" ? rows : auditJson(rows), "a", {
    orgId: "uuid",
    portalId: "uuid",
    actorType: "ActorType",
    actorUserId: "uuid",
    oauthClientId: "uuid",
    action: "text",
    targetType: "text",
    targetId: "text",
    metadata: "jsonb",
  });
