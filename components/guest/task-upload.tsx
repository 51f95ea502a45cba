"use client";

import { useRouter } from "next/navigation";
import { Uploader } from "@/components/files/uploader";
import { useToast } from "@/components/ui/toast";

/**
 * Files sent for a task (a File Request, more files for one already sent, or attachments to a
 * Question's answer), linked to the task, or to the portal itself (`taskId` null); a toast says it
 * arrived and what happens next, and the page refreshes, so a File Request the first upload
 * fulfilled moves to Done.
 */
export function TaskUpload({ orgId, portalId, taskId, next }: { orgId: string; portalId: string; taskId: string | null; next: string }) {
  const router = useRouter();
  const toast = useToast();
  return (
    <Uploader
      orgId={orgId}
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
