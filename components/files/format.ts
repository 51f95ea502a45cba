// Sizes and dates as the file views show them (client and server components alike).

/** 1536 → "1.5 KB"; bytes under 1 KB stay bytes. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** "23 Nov 2026" (UTC, so server and browser agree). */
export function formatDate(date: Date): string {
  return dateFormat.format(date);
}
