import { db } from "@/lib/db";

/** The latest recorded emails, for the development mailbox (D29). */
export async function listRecentEmails(limit = 50) {
  return db.outboundEmail.findMany({ orderBy: { createdAt: "desc" }, take: limit });
}
