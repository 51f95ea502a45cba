import { env } from "@/lib/env";

/** /dev/mailbox exists when email is captured rather than sent, outside production (D29). */
export function devMailboxEnabled(): boolean {
  const e = env();
  return !e.SMTP_URL && (e.NODE_ENV !== "production" || e.DEV_MAILBOX);
}
