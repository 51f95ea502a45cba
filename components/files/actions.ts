// The file actions the portal's file components call, bound to the organization. The pages pass
// them in (app/(web)/org/[orgId]/vault/[portalId]/file-actions.ts, bound by `fileActions(orgId)`),
// so components/ never imports app/.
import type { BoundAction } from "@/components/portal-workspace/state";
import type { FormState } from "@/lib/web/form-state";

export interface UploadStartState extends FormState {
  ticket?: { fileId: string; uploadUrl: string; contentType: string };
}

export interface UploadCompleteState extends FormState {
  file?: { id: string; name: string };
}

export interface EntryState extends FormState {
  /** Set once the action succeeded (the dialog closes, the toast shows). */
  done?: { id: string; name: string };
}

export interface FileActions {
  startUpload: BoundAction<UploadStartState>;
  completeUpload: BoundAction<UploadCompleteState>;
  createFolder: BoundAction<EntryState>;
  renameEntry: BoundAction<EntryState>;
  moveEntry: BoundAction<EntryState>;
  deleteEntry: BoundAction<EntryState>;
  restoreEntry: BoundAction<EntryState>;
}
