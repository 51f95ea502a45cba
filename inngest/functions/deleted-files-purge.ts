import { cron } from "inngest";
import { inngest } from "@/inngest/client";
import { purgeDeletedEntries } from "@/lib/files/purge-deleted";

/** Nightly: files and folders deleted more than 30 days ago go for good, with their storage objects. */
export const deletedFilesPurge = inngest.createFunction(
  { id: "deleted-files-purge", triggers: [cron("47 2 * * *")], singleton: { mode: "skip" } },
  async ({ step }) => step.run("purge", () => purgeDeletedEntries()),
);
