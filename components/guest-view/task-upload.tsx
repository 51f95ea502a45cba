"use client";

import { useRouter } from "next/navigation";
import { Uploader } from "@/components/files/uploader";
import { useToast } from "@/components/ui/toast";
import type { FileActions } from "@/components/files/actions";

/**
 * Files sent for a task (a File Request, more files for one already sent, or attachments to a
 * Question's answer), linked to the task, or to the portal itself (`taskId` null); a toast says it
 * arrived and what happens next, and the page refreshes, so a File Request the first upload
 * fulfilled moves to Done.
 */
export function TaskUpload({ files, portalId, taskId, next }: { files: FileActions; portalId: string; taskId: string | null; next: string }) {
  const router = useRouter();
  const toast = useToast();
  return (
    <Uploader
      actions={files}
      portalId={portalId}
      folderId={null}
      taskId={taskId ?? undefined}
      onUploaded={() => {
        toast("File sent", { description: next });
        router.refresh();
      }}
    />
  );
}
