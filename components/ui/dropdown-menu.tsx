"use client";

import { MoreHorizontal, type LucideIcon } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import type { ReactNode } from "react";

export interface MenuItem {
  label: string;
  icon?: LucideIcon;
  onSelect: () => void;
  danger?: boolean;
  disabled?: boolean;
}

/**
 * A row's actions behind one "More" button (Radix DropdownMenu: arrow keys, type-ahead, Escape).
 * `label` names the button for screen readers, e.g. "Actions for report.pdf".
 */
export function ActionMenu({ label, items, trigger }: { label: string; items: MenuItem[]; trigger?: ReactNode }) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        {trigger ?? (
          <button
            type="button"
            aria-label={label}
            className="rounded-md p-1.5 text-fg-muted hover:bg-muted focus-visible:outline-2 focus-visible:outline-brand-ink"
          >
            <MoreHorizontal aria-hidden size={18} />
          </button>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={4} className="z-50 min-w-44 rounded-md border border-line bg-surface p-1 shadow-lg">
          {items.map(({ label: itemLabel, icon: Icon, onSelect, danger, disabled }) => (
            <DropdownMenu.Item
              key={itemLabel}
              disabled={disabled}
              onSelect={onSelect}
              className={`flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm outline-none data-[disabled]:cursor-default data-[disabled]:opacity-50 data-[highlighted]:bg-muted ${danger ? "text-danger" : "text-fg"}`}
            >
              {Icon ? <Icon aria-hidden size={16} /> : null}
              {itemLabel}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
