import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";

/**
 * A page's read through a domain function: what the viewer may not see or do (lib/access answers
 * `not_found` or `forbidden`) is a missing page; anything else propagates.
 */
export async function orNotFound<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (e) {
    if (isAppError(e) && (e.code === "not_found" || e.code === "forbidden")) notFound();
    throw e;
  }
}
