"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

/** Copies a value to the clipboard and says so; the label names what is copied. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => setStatus("copied"),
      () => setStatus("failed"),
    );
  };
  return (
    <span className="inline-flex items-center gap-2">
      <Button type="button" variant="secondary" onClick={copy} aria-label={label}>
        Copy
      </Button>
      <span role="status" className="text-xs text-fg-muted">
        {status === "copied" ? "Copied" : status === "failed" ? "Copy failed: select the text and copy it" : ""}
      </span>
    </span>
  );
}
