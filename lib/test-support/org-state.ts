// What a refused request must leave exactly as it was: a digest of every row of an organization
// (and counts of the tables without orgId), read in one query. Used by the cross-organization
// sweep (integration tier) and the fuzz tier.
//
// Tables the background work updates on its own (the event relay marks events handed over, the
// job engine records deliveries and sends mail and digests, every token use stamps its grant) are compared by
// their row ids only: a refused request must not add or remove rows there either.

const FULL_ROWS = [
  "Portal",
  "PortalGuest",
  "Invitation",
  "ExternalSystemId",
  "PartnerConnection",
  "PartnerLink",
  "PartnerPush",
  "FileEntry",
  "Task",
  "Webhook",
  "AuditLog",
  "WorkflowState",
  "Membership",
  "MemberInvitation",
  "NotificationSetting",
  "OAuthClient",
  "BulkRequest",
  "RecurringRequest",
  "TemplateRequest",
  "Message",
  "InboxItem",
];
const IDS_ONLY = ["Event", "OutboundEmail", "DigestItem", "BatchedNotice", "OAuthGrant", "OAuthAuthorizationCode"];
/** Every table with an `orgId` column is in one of these (sweep.int.test.ts checks it against the database). */
export const ORG_TABLES = [...FULL_ROWS, ...IDS_ONLY];
/** Tables without orgId, counted whole: only meaningful where nothing else writes the database meanwhile. */
const GLOBAL_COUNTS = [
  "TaskAssignee",
  "TaskFormField",
  "TaskAnswer",
  "TaskReminder",
  "WebhookDelivery",
  "WebhookAttempt",
  "OAuthRefreshToken",
  "User",
  "InboxSeen",
  "MessageRead",
];

const q = (t: string) => `"${t}"`;

/** One row: a column per table; `$1` is the organization's id. */
export const ORG_STATE_SQL = `SELECT ${[
  // The organization's own row: its name, plan, profile and guest defaults.
  `(SELECT md5(r::text) FROM "Organization" r WHERE r.id = $1::uuid) AS "Organization"`,
  ...FULL_ROWS.map((t) => `(SELECT md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) FROM ${q(t)} r WHERE r."orgId" = $1::uuid) AS ${q(t)}`),
  ...IDS_ONLY.map((t) => `(SELECT md5(coalesce(string_agg(r.id::text, '|' ORDER BY r.id::text), '')) FROM ${q(t)} r WHERE r."orgId" = $1::uuid) AS ${q(t)}`),
  ...GLOBAL_COUNTS.map((t) => `(SELECT count(*)::text FROM ${q(t)}) AS ${q(t)}`),
].join(", ")}`;

export type OrgState = Record<string, string>;

/** The tables whose digest differs between two readings. */
export function changedTables(before: OrgState, after: OrgState): string[] {
  return Object.keys(before).filter((t) => before[t] !== after[t]);
}
