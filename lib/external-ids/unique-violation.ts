import { conflict } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The unique index (orgId, systemKey, value) is what keeps a (system, id) pair on one portal when
 * two requests assign it at once: the later insert fails when the earlier commits. That failure
 * is the same 409 conflict as the pre-check's; any other error passes through.
 */
export function externalIdConflictOf(error: unknown): unknown {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002" && error.meta?.["modelName"] === "ExternalSystemId") {
    return conflict("externalSystemIds: a (system, id) pair is already assigned to another portal of this organization");
  }
  return error;
}
