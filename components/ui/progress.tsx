"use client";

import { Progress as ProgressPrimitive } from "radix-ui";

/** A progress bar with an accessible name and value (Radix Progress); `value` 0-100 or null while unknown. */
export function Progress({ value, label, tone = "brand" }: { value: number | null; label: string; tone?: "brand" | "success" | "danger" }) {
  const colour = { brand: "bg-brand", success: "bg-success-solid", danger: "bg-danger-solid" }[tone];
  return (
    <ProgressPrimitive.Root value={value} max={100} aria-label={label} className="relative h-2 w-full overflow-hidden rounded-full bg-track">
      <ProgressPrimitive.Indicator className={`h-full transition-[width] ${colour}`} style={{ width: `${value ?? 0}%` }} />
    </ProgressPrimitive.Root>
  );
}
