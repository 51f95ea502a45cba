import { toApiActionType } from "./action-types";
import { FORM_FIELD_KINDS } from "./form-fields";
import type { TaskWithRelations } from "./list-portal-tasks";
import type { TaskJson } from "./schemas";

/** A Task as the API returns it (spec section 2, D11). */
export function toTaskResponse(t: TaskWithRelations): TaskJson {
  return {
    id: t.id,
    vault_id: t.portalId,
    org_id: t.orgId,
    title: t.title,
    description: t.description,
    action_type: toApiActionType(t.actionType),
    status: t.status,
    due_date: t.dueDate,
    created_at: t.createdAt,
    assignees: t.assignees.map((a) => ({ user_id: a.userId, name: a.name, email: a.email, type: a.type })),
    send_reminder: t.sendReminder,
    updated_at: t.updatedAt,
    completed_at: t.completedAt,
    attached_file_ids: t.files.map((f) => f.id),
    document_file_id: t.documentFileId,
    signature_placement: t.documentFileId && isObject(t.signaturePlacement) ? t.signaturePlacement : null,
    signers: t.signers.map((s) => ({ user_id: s.userId, name: s.name, email: s.email, type: s.type, signed_at: s.signedAt })),
    signing_order: t.signers.length > 0 ? t.signingOrder : null,
    form_fields: t.formFields.map((f) => ({ id: f.id, label: f.label, kind: asKind(f.kind), required: f.required, options: f.options })),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const asKind = (kind: string) => FORM_FIELD_KINDS.find((k) => k === kind) ?? "text";
