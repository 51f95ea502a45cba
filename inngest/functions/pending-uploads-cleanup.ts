import { cron } from "inngest";
import { inngest } from "@/inngest/client";
import { cleanupPendingUploads } from "@/lib/files/cleanup-pending";

/** Nightly: pending two-step uploads older than a day go, with their storage objects. */
export const pendingUploadsCleanup = inngest.createFunction(
  { id: "pending-uploads-cleanup", triggers: [cron("17 2 * * *")], singleton: { mode: "skip" } },
  async ({ step }) => step.run("cleanup", () => cleanupPendingUploads()),
);
