"use client";

import { useRouter } from "next/navigation";

export interface OrgOption {
  orgId: string;
  orgName: string;
  role: string;
}

export function OrgSwitcher({ current, options }: { current: string; options: OrgOption[] }) {
  const router = useRouter();
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="sr-only">Organization</span>
      <select
        aria-label="Organization"
        className="rounded-md border border-line-strong bg-surface px-2 py-1"
        value={current}
        onChange={(e) => router.push(`/org/${e.target.value}`)}
      >
        {options.map((o) => (
          <option key={o.orgId} value={o.orgId}>
            {o.orgName} ({o.role})
          </option>
        ))}
      </select>
    </label>
  );
}
