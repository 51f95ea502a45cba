"use client";

import { createContext, useContext, type ReactNode } from "react";
import { formatDate, formatDateTime, formatDay, formatExact, formatRelative } from "@/lib/time/format";
import { DEFAULT_TIME_ZONE } from "@/lib/time/zones";

// Dates and times on every page, in the viewer's zone (given once by the layout) and one format
// (lib/time/format.ts); the exact moment is the tooltip. Server and client components alike.

const TimeZoneContext = createContext(DEFAULT_TIME_ZONE);

/** The viewer's zone for everything below (lib/time/settings.ts timeZoneOf). */
export function TimeZoneProvider({ zone, children }: { zone: string; children: ReactNode }) {
  return <TimeZoneContext value={zone}>{children}</TimeZoneContext>;
}

/** The viewer's zone, for client components that write dates into text or inputs. */
export function useTimeZone(): string {
  return useContext(TimeZoneContext);
}

/**
 * A moment: `date` "25 Nov 2026", `datetime` "25 Nov 2026, 14:05", `relative` "2 h ago" (the
 * date and time beyond a week). Nothing for null.
 */
export function Time({
  value,
  format = "datetime",
  className,
}: {
  value: Date | string | null;
  format?: "date" | "datetime" | "relative";
  className?: string;
}) {
  const zone = useTimeZone();
  if (value === null) return null;
  const date = new Date(value);
  const text =
    format === "date"
      ? formatDate(date, zone)
      : format === "datetime"
        ? formatDateTime(date, zone)
        : (formatRelative(date, new Date()) ?? formatDateTime(date, zone));
  // A relative time may have moved on by a minute between the server's render and hydration.
  return (
    <time dateTime={date.toISOString()} title={formatExact(date, zone)} className={className} suppressHydrationWarning={format === "relative"}>
      {text}
    </time>
  );
}

/** A date without a time ("2026-11-25"): the same day in every zone. */
export function Day({ value, className }: { value: string | Date; className?: string }) {
  const iso = typeof value === "string" ? value.slice(0, 10) : value.toISOString().slice(0, 10);
  return (
    <time dateTime={iso} className={className}>
      {formatDay(value)}
    </time>
  );
}
