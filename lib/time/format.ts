// How the web and emails write dates and times: one format everywhere ("25 Nov 2026",
// "25 Nov 2026, 14:05"), in a given IANA zone, or relative ("2 h ago") where recency is the point.
// Written out from the zone's numbers rather than a locale's pattern, so that a server and a
// browser with different ICU data write the same text. Pure: used on both sides.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      hourCycle: "h23",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The calendar date and clock time that `date` is in `zone`. */
function wallTime(date: Date, zone: string): WallTime {
  const n: Record<string, number> = {};
  for (const p of formatterOf(zone).formatToParts(date)) if (p.type !== "literal") n[p.type] = Number(p.value);
  return { year: n.year!, month: n.month!, day: n.day!, hour: n.hour! % 24, minute: n.minute!, second: n.second! };
}

/** How far `zone`'s clock is ahead of UTC at the moment `ms`, in milliseconds. */
function offsetAt(ms: number, zone: string): number {
  const t = wallTime(new Date(ms), zone);
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second) - Math.floor(ms / 1000) * 1000;
}

const pad = (n: number) => String(n).padStart(2, "0");
const dayText = (t: WallTime) => `${t.day} ${MONTHS[t.month - 1]} ${t.year}`;
const clockText = (t: WallTime) => `${pad(t.hour)}:${pad(t.minute)}`;

/** The hour (0–23) of the clock in `zone` at `date`. */
export function hourIn(date: Date, zone: string): number {
  return wallTime(date, zone).hour;
}

/** "25 Nov 2026": the day `date` falls on in `zone`. */
export function formatDate(date: Date, zone: string): string {
  return dayText(wallTime(date, zone));
}

/** "25 Nov 2026, 14:05" in `zone`. */
export function formatDateTime(date: Date, zone: string): string {
  const t = wallTime(date, zone);
  return `${dayText(t)}, ${clockText(t)}`;
}

/** "25 Nov 2026, 14:05:09 America/New_York (UTC−05:00)": the exact moment, for a tooltip. */
export function formatExact(date: Date, zone: string): string {
  const t = wallTime(date, zone);
  const offset = Math.round(offsetAt(date.getTime(), zone) / MINUTE);
  const sign = offset < 0 ? "−" : "+";
  const abs = Math.abs(offset);
  return `${dayText(t)}, ${clockText(t)}:${pad(t.second)} ${zone} (UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)})`;
}

/**
 * A date without a time ("2026-11-25", or a Date at 00:00 UTC of that day, as `@db.Date` columns
 * and date answers hold them): the same day in every zone.
 */
export function formatDay(day: string | Date): string {
  const d = typeof day === "string" ? new Date(`${day.slice(0, 10)}T00:00:00Z`) : day;
  return Number.isNaN(d.getTime()) ? String(day) : formatDate(d, "UTC");
}

/**
 * "just now", "5 min ago", "2 h ago", "3 days ago", "in 2 h", "in 3 days"; null when `date` is a
 * week or more from `now` (a date says more then).
 */
export function formatRelative(date: Date, now: Date): string | null {
  const diff = date.getTime() - now.getTime();
  const abs = Math.abs(diff);
  if (abs >= 7 * DAY) return null;
  if (abs < MINUTE) return "just now";
  const text =
    abs < HOUR ? `${Math.floor(abs / MINUTE)} min` : abs < DAY ? `${Math.floor(abs / HOUR)} h` : `${Math.floor(abs / DAY)} day${abs < 2 * DAY ? "" : "s"}`;
  return diff < 0 ? `${text} ago` : `in ${text}`;
}

/** The moment whose wall time in `zone` is `local` ("2026-03-01T09:30", an `<input type="datetime-local">`'s value). */
export function fromZonedInput(local: string, zone: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) return null;
  const asUtc = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  // The zone's offset at a first guess, then at the result: right across a daylight-saving change.
  const first = asUtc - offsetAt(asUtc, zone);
  return new Date(asUtc - offsetAt(first, zone));
}

/** `date` as the value of an `<input type="datetime-local">` showing wall time in `zone`. */
export function toZonedInput(date: Date, zone: string): string {
  const t = wallTime(date, zone);
  return `${t.year}-${pad(t.month)}-${pad(t.day)}T${clockText(t)}`;
}
