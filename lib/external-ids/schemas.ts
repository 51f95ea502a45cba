import { z } from "zod";

// externalSystemIds in a PATCH (spec sections 2, 4, 8): key → id, or null to delete the key.
// Keys are external system names, matched case-insensitively; the request's spelling is kept.

export const MAX_SYSTEM_LENGTH = 100;
export const MAX_VALUE_LENGTH = 256;
/** Per request and per portal. */
export const MAX_SYSTEMS = 50;
export const PARTNER_SYSTEM = "partner";
export const PARTNER_ID = /^[0-9]{6}$/;

/** The case-insensitive form of a system name (stored as `systemKey`). */
export function systemKeyOf(system: string): string {
  return system.trim().toLowerCase();
}

export interface ExternalIdChange {
  /** As sent, trimmed. */
  system: string;
  systemKey: string;
  /** null: delete the key. */
  value: string | null;
}

const value = z
  .string()
  .min(1, "Must not be empty (send null to delete the key)")
  .max(MAX_VALUE_LENGTH, `Must be at most ${MAX_VALUE_LENGTH} characters`)
  .nullable();

export const ExternalSystemIdsPatchSchema = z
  .record(z.string(), value)
  .superRefine((map, ctx) => {
    const entries = Object.entries(map);
    if (entries.length > MAX_SYSTEMS) ctx.addIssue({ code: "custom", message: `At most ${MAX_SYSTEMS} keys` });
    const seen = new Map<string, string>();
    for (const [system, id] of entries) {
      const key = systemKeyOf(system);
      if (key === "" || system.trim().length > MAX_SYSTEM_LENGTH) {
        ctx.addIssue({ code: "custom", path: [system], message: `Key must be 1 to ${MAX_SYSTEM_LENGTH} characters (surrounding spaces are trimmed)` });
      }
      const other = seen.get(key);
      if (other !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [system],
          message: `Keys ${JSON.stringify(other)} and ${JSON.stringify(system)} differ only by case (or surrounding spaces)`,
        });
      }
      seen.set(key, system);
      if (key === PARTNER_SYSTEM && id !== null && !PARTNER_ID.test(id)) {
        ctx.addIssue({ code: "custom", path: [system], message: "The partner id must be exactly 6 digits" });
      }
    }
  })
  .meta({
    description:
      "Key (external system, case-insensitive) to id (at most 256 characters), or null to delete the key. Sent keys are set, omitted keys stay. `partner` must be 6 digits.",
  });

export type ExternalSystemIdsPatch = z.output<typeof ExternalSystemIdsPatchSchema>;

/** A validated patch as changes: keys trimmed, with their case-insensitive form. */
export function toExternalIdChanges(patch: ExternalSystemIdsPatch): ExternalIdChange[] {
  return Object.entries(patch).map(([system, value]) => ({ system: system.trim(), systemKey: systemKeyOf(system), value }));
}
