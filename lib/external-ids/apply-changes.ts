import type { Tx } from "@/lib/db";
import { conflict, invalidRequest } from "@/lib/errors";
import { MAX_SYSTEMS, PARTNER_SYSTEM, type ExternalIdChange } from "./schemas";

export interface AppliedExternalIds {
  /** Keys set or respelled, as stored now. */
  set: Record<string, string>;
  /** Keys deleted, as they were spelled. */
  removed: string[];
  /** The partner id before and after; equal when the request did not touch it. */
  partner: { previous: string | null; next: string | null; touched: boolean };
}

/**
 * Merges a PATCH's externalSystemIds into a portal's ids (spec section 4): sent keys are set
 * (replacing a key that differs only by case, with the request's spelling), null deletes, omitted
 * keys stay. The caller holds the portal's row lock. A (system, id) pair on another portal of the
 * organization is 409; the unique index (orgId, systemKey, value) decides races, and the caller
 * maps its violation to the same 409 (mapExternalIdConflict).
 */
export async function applyExternalIdChanges(
  tx: Tx,
  { orgId, portalId, changes }: { orgId: string; portalId: string; changes: readonly ExternalIdChange[] },
): Promise<AppliedExternalIds> {
  const rows = await tx.externalSystemId.findMany({ where: { orgId, portalId } });
  const byKey = new Map(rows.map((r) => [r.systemKey, r]));
  const keys = new Set(byKey.keys());
  const previousPartner = byKey.get(PARTNER_SYSTEM)?.value ?? null;

  const wanted = changes.flatMap((c) => (c.value === null ? [] : [{ systemKey: c.systemKey, value: c.value }]));
  if (wanted.length > 0) {
    const taken = await tx.externalSystemId.findFirst({
      where: { orgId, portalId: { not: portalId }, OR: wanted },
      select: { system: true, value: true },
    });
    if (taken) throw pairTaken(taken.system, taken.value);
  }

  const set: Record<string, string> = {};
  const removed: string[] = [];
  for (const { system, systemKey, value } of changes) {
    const existing = byKey.get(systemKey);
    if (value === null) {
      if (!existing) continue;
      await tx.externalSystemId.delete({ where: { id: existing.id } });
      keys.delete(systemKey);
      removed.push(existing.system);
    } else if (!existing) {
      await tx.externalSystemId.create({ data: { orgId, portalId, system, systemKey, value } });
      keys.add(systemKey);
      set[system] = value;
    } else if (existing.system !== system || existing.value !== value) {
      await tx.externalSystemId.update({ where: { id: existing.id }, data: { system, value } });
      set[system] = value;
    }
  }
  if (keys.size > MAX_SYSTEMS) throw invalidRequest(`externalSystemIds: A portal has at most ${MAX_SYSTEMS} external system ids`);

  const partnerChange = changes.find((c) => c.systemKey === PARTNER_SYSTEM);
  return {
    set,
    removed,
    partner: { previous: previousPartner, next: partnerChange ? partnerChange.value : previousPartner, touched: partnerChange !== undefined },
  };
}

function pairTaken(system: string, value: string) {
  return conflict(`externalSystemIds: ${system} id ${JSON.stringify(value)} is already assigned to another portal of this organization`);
}
