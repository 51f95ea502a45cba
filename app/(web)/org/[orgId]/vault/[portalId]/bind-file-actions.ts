import type { FileActions } from "@/components/files/actions";
import {
  completeUploadAction,
  createFolderAction,
  deleteEntryAction,
  moveEntryAction,
  renameEntryAction,
  restoreEntryAction,
  startUploadAction,
} from "./file-actions";

/** The portal's file actions bound to the organization, for the file components (components/files/actions.ts). */
export function fileActions(orgId: string): FileActions {
  return {
    startUpload: startUploadAction.bind(null, orgId),
    completeUpload: completeUploadAction.bind(null, orgId),
    createFolder: createFolderAction.bind(null, orgId),
    renameEntry: renameEntryAction.bind(null, orgId),
    moveEntry: moveEntryAction.bind(null, orgId),
    deleteEntry: deleteEntryAction.bind(null, orgId),
    restoreEntry: restoreEntryAction.bind(null, orgId),
  };
}
