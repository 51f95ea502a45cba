import { z } from "zod";

// Time zones are IANA names ("Europe/London"), checked against the runtime's own zone data.

/** The zone of anyone and anything that has none of its own (and of every API timestamp). */
export const DEFAULT_TIME_ZONE = "UTC";

/**
 * The runtime's name for `name` (its spelling of the case; aliases stay as the runtime keeps them),
 * or null when it is no IANA zone. Offsets such as "+05:00" are refused: they know no daylight saving.
 */
export function canonicalTimeZone(name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Every zone to choose from, UTC first: what the runtime supports. */
export function timeZoneNames(): string[] {
  const names = Intl.supportedValuesOf("timeZone").filter((n) => n !== DEFAULT_TIME_ZONE);
  return [DEFAULT_TIME_ZONE, ...names];
}

/** A form's or a browser's zone: an IANA name, returned as the runtime spells it. */
export const TimeZoneSchema = z
  .string()
  .trim()
  .min(1, "Choose a time zone from the list")
  .transform((name, ctx) => {
    const zone = canonicalTimeZone(name);
    if (zone) return zone;
    ctx.addIssue({
      code: "custom",
      message: `"${name.slice(0, 60)}" is not a time zone: choose one from the list, or type an IANA name such as Europe/London or America/New_York`,
    });
    return z.NEVER;
  });
