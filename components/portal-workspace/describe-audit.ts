// A portal history row in words: what happened (from the audit action and its metadata) and to what.

type Meta = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const quoted = (v: unknown) => (str(v) ? `“${str(v)}”` : "an item");
const list = (v: unknown) => (Array.isArray(v) && v.length > 0 ? v.map(String).join(", ") : "none");

const WHAT: Record<string, (m: Meta) => string> = {
  "portal.created": () => "Created the portal",
  "portal.renamed": (m) => `Renamed the portal from ${quoted(m.from)} to ${quoted(m.to)}`,
  "portal.tags_changed": (m) => `Changed the tags from ${list(m.from)} to ${list(m.to)}`,
  "portal.archived": () => "Archived the portal",
  "portal.restored": () => "Restored the portal from the archive",
  "portal.workflow_changed": (m) => `Moved the portal ${m.from ? `from ${quoted(m.from)} ` : ""}to ${quoted(m.to)}`,
  "portal.external_ids_changed": () => "Changed the external system ids",
  "portal.responsible_changed": (m) => (str(m.to) ? `Made ${str(m.to)} responsible for the portal` : "Named nobody responsible for the portal"),
  "file.uploaded": (m) => `Uploaded ${quoted(m.name)}`,
  "file.deleted": (m) => `Deleted ${quoted(m.name)}`,
  "file.renamed": (m) => `Renamed ${quoted(m.from)} to ${quoted(m.to)}`,
  "file.moved": (m) => `Moved ${quoted(m.name)}`,
  "file.restored": (m) => `Restored ${quoted(m.name)}`,
  "folder.created": (m) => `Created the folder ${quoted(m.name)}`,
  "folder.deleted": (m) => `Deleted the folder ${quoted(m.name)}`,
  "folder.renamed": (m) => `Renamed the folder ${quoted(m.from)} to ${quoted(m.to)}`,
  "folder.moved": (m) => `Moved the folder ${quoted(m.name)}`,
  "folder.restored": (m) => `Restored the folder ${quoted(m.name)}`,
  "task.created": (m) => `Created the task ${quoted(m.title)}`,
  "task.updated": (m) => `Changed a task (${list(m.fields)})`,
  "task.completed": () => "Completed a task",
  "task.reopened": () => "Reopened a task",
  "task.deleted": (m) => `Deleted the task ${quoted(m.title)}`,
  "task.form_changed": (m) => `Changed a form (${String(m.fields ?? 0)} fields)`,
  "task.assignees_changed": (m) => `Changed a task's assignees (${Array.isArray(m.assignees) ? m.assignees.length : 0} now)`,
  "task.document_set": (m) => `Set the document to sign: ${quoted(m.name)}`,
  "message.posted": (m) => {
    const files = Array.isArray(m.file_ids) ? m.file_ids.length : 0;
    return `Wrote a message${files > 0 ? ` with ${files === 1 ? "1 file" : `${files} files`}` : ""}`;
  },
  "guest.invited": (m) => `Invited ${str(m.email) ?? "a guest"}`,
  "guest.reinvited": (m) => `Sent a new invitation to ${str(m.email) ?? "a guest"}`,
  "guest.accepted": (m) => `${str(m.email) ?? "A guest"} accepted the invitation`,
  "guest.removed": (m) => `Removed ${str(m.email) ?? "a guest"}`,
};

/** The row in words; an action without wording shows as stored (e.g. `partner_link.verified`). */
export function describeAudit(action: string, metadata: unknown): string {
  const meta = metadata && typeof metadata === "object" && !Array.isArray(metadata) ? (metadata as Meta) : {};
  return WHAT[action]?.(meta) ?? action.replace(/[._]/g, " ");
}
