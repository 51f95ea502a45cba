"use client";

import { useRouter } from "next/navigation";
import { Uploader } from "@/components/files/uploader";

/**
 * Files sent for a task (a File Request, or attachments to a Question's answer) with the portal's
 * uploader, linked to the task; the page refreshes after each upload, so a File Request the first
 * upload fulfilled moves to Done.
 */
export function TaskUpload({ orgId, portalId, taskId }: { orgId: string; portalId: string; taskId: string }) {
  const router = useRouter();
  return <Uploader orgId={orgId} portalId={portalId} folderId={null} taskId={taskId} onUploaded={() => router.refresh()} />;
}
