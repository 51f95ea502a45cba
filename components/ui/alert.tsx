import type { ReactNode } from "react";

export function Alert({ tone = "error", children }: { tone?: "error" | "info" | "success"; children: ReactNode }) {
  const tones = {
    error: "border-danger-line bg-danger-soft text-danger-strong",
    info: "border-info-line bg-info-soft text-info",
    success: "border-success-line bg-success-soft text-success-strong",
  };
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-md border px-4 py-3 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}
