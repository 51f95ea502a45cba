// Due dates in the browser: the picker's local date-time and the ISO date-time the domain takes.

/** `2026-03-01T09:30` (the browser's zone) as an ISO date-time with offset; "" stays "". */
export function localToIso(local: string): string {
  if (!local) return "";
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

/** A date as the value of an `<input type="datetime-local">` in the browser's zone. */
export function isoToLocal(value: Date | string | null): string {
  if (!value) return "";
  const d = new Date(value);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
