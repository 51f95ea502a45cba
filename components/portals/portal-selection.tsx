"use client";

import { Archive, ArchiveRestore, Tag, Workflow } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { BoundAction } from "@/components/portal-workspace/state";
import { useRunAction } from "@/components/portal-workspace/use-run-action";
import { BULK_FORM_ID } from "@/components/requests/form-ids";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";

// The portal list's selection: the row checkboxes belong to the bulk request's form (they are
// posted with it as `portal_ids`); these controls read the same checkboxes.

const ROW_BOXES = `input[form="${BULK_FORM_ID}"][name="portal_ids"]`;

function rowBoxes(): HTMLInputElement[] {
  return [...document.querySelectorAll<HTMLInputElement>(ROW_BOXES)];
}

interface Selection {
  /** The ids of the ticked rows. */
  ids: string[];
  /** How many rows the page has. */
  rows: number;
}

/** The ticked rows, kept up to date as boxes are ticked (and as the list changes). */
function useSelectedPortals(): Selection {
  const [selection, setSelection] = useState<Selection>({ ids: [], rows: 0 });
  useEffect(() => {
    const update = () => {
      const boxes = rowBoxes();
      const ids = boxes.filter((b) => b.checked).map((b) => b.value);
      setSelection((before) =>
        before.rows === boxes.length && before.ids.length === ids.length && before.ids.every((id, i) => id === ids[i]) ? before : { ids, rows: boxes.length },
      );
    };
    update();
    document.addEventListener("change", update);
    // Rows replaced after a change (an archived portal leaves the list) change no box.
    const observer = new MutationObserver(update);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener("change", update);
      observer.disconnect();
    };
  }, []);
  return selection;
}

/** The header's box: ticks or clears every row of the page; mixed while some are ticked. */
export function SelectAllPortals() {
  const { ids, rows } = useSelectedPortals();
  const box = useRef<HTMLInputElement>(null);
  const all = rows > 0 && ids.length === rows;
  useEffect(() => {
    if (box.current) box.current.indeterminate = ids.length > 0 && !all;
  }, [ids, all]);
  return (
    <input
      ref={box}
      type="checkbox"
      checked={all}
      aria-label="Select every portal on this page"
      className="size-4 rounded border-line-strong"
      data-testid="portal-select-all"
      onChange={(e) => {
        const tick = e.currentTarget.checked;
        for (const b of rowBoxes()) b.checked = tick;
        document.dispatchEvent(new Event("change"));
      }}
    />
  );
}

/**
 * What can be done to the selected portals at once: archive or restore them, add a tag, move them
 * to a workflow state. Disabled until a row is ticked; the outcome (and any portal it was refused
 * for, with the reason) in a toast.
 */
export function PortalSelectionActions({
  action,
  states,
  status,
}: {
  action: BoundAction;
  states: { id: string; name: string }[];
  /** The list's status filter: archive is offered for active portals, restore for archived ones. */
  status: "active" | "archived" | "all";
}) {
  const selected = useSelectedPortals().ids;
  const { run, pending } = useRunAction(action);
  const [tag, setTag] = useState("");
  const none = selected.length === 0;
  const disabled = none || pending;
  // On a phone the controls show once a portal is ticked: until then the bar is its one-line hint,
  // so the first screen shows portals rather than disabled buttons.
  const idle = none ? "max-sm:hidden" : "";

  const toast = useToast();
  const apply = async (fields: Record<string, string>) => {
    const state = await run({ portal_ids: selected, ...fields });
    if (!state) return;
    if (state.message) toast(state.message);
    for (const b of rowBoxes()) b.checked = false;
    document.dispatchEvent(new Event("change"));
    return state;
  };
  const addTag = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (await apply({ kind: "addTag", tag })) setTag("");
  };

  return (
    <div
      role="group"
      aria-label="Change the selected portals"
      className="flex flex-wrap items-center gap-2 rounded-lg border border-line bg-subtle px-3 py-2 text-sm"
      data-testid="portal-selection"
    >
      <span className="font-medium text-fg-2" aria-live="polite" data-testid="portal-selection-count">
        {none ? "Tick portals to change several at once" : `${selected.length} selected`}
      </span>
      {status !== "archived" ? (
        <Button variant="secondary" size="sm" className={idle} disabled={disabled} onClick={() => void apply({ kind: "archive" })}>
          <Archive aria-hidden size={14} /> Archive
        </Button>
      ) : null}
      {status !== "active" ? (
        <Button variant="secondary" size="sm" className={idle} disabled={disabled} onClick={() => void apply({ kind: "restore" })}>
          <ArchiveRestore aria-hidden size={14} /> Restore
        </Button>
      ) : null}
      <form onSubmit={(e) => void addTag(e)} className={`flex items-center gap-1 ${idle}`}>
        <label htmlFor="selection-tag" className="sr-only">
          Tag to add to the selected portals
        </label>
        <input
          id="selection-tag"
          value={tag}
          onChange={(e) => setTag(e.target.value)}
          placeholder="Tag"
          maxLength={100}
          disabled={none}
          className="h-8 w-28 rounded-md border border-line-strong bg-surface px-2 text-sm disabled:opacity-50"
        />
        <Button type="submit" variant="secondary" size="sm" disabled={disabled || tag.trim() === ""}>
          <Tag aria-hidden size={14} /> Add tag
        </Button>
      </form>
      {states.length > 0 ? (
        <span className={`flex items-center gap-1 ${idle}`}>
          <Workflow aria-hidden size={14} className="text-fg-subtle" />
          <label htmlFor="selection-state" className="sr-only">
            Move the selected portals to a workflow state
          </label>
          <select
            id="selection-state"
            value=""
            disabled={disabled}
            onChange={(e) => {
              const state = states.find((s) => s.id === e.target.value);
              if (state) void apply({ kind: "workflowState", workflowStateId: state.id, workflowStateName: state.name });
            }}
            className="h-8 rounded-md border border-line-strong bg-surface px-2 text-sm disabled:opacity-50"
          >
            <option value="">Move to state…</option>
            {states.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </span>
      ) : null}
    </div>
  );
}
