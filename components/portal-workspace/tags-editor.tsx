"use client";

import { Plus, X } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FieldError } from "@/components/ui/field-error";
import { CONTROL_HEIGHT_SM } from "@/components/ui/field";
import { MAX_TAG_LENGTH, MAX_TAGS } from "@/lib/portals/limits";
import type { BoundAction } from "./state";
import { useRunAction } from "./use-run-action";

/** Checks a new tag as the API does (trimmed, 1-100 characters, at most 50, no duplicates). */
export function tagProblem(tag: string, tags: string[]): string | null {
  const t = tag.trim();
  if (t.length === 0) return "Type a tag first";
  if (t.length > MAX_TAG_LENGTH) return `A tag has at most ${MAX_TAG_LENGTH} characters (this one has ${t.length})`;
  if (tags.includes(t)) return `The portal already has the tag "${t}"`;
  if (tags.length >= MAX_TAGS) return `A portal has at most ${MAX_TAGS} tags: remove one first`;
  return null;
}

/** The portal's tags as chips: remove one with its button, add one with the field (Enter or Add). */
export function TagsEditor({ portalId, tags, action, idPrefix = "" }: { portalId: string; tags: string[]; action: BoundAction; idPrefix?: string }) {
  // Unique ids when the editor is on a page twice (the header and the settings tab).
  const ids = { label: `${idPrefix}tags-label`, input: `${idPrefix}new-tag`, error: `${idPrefix}new-tag-error` };
  const { run, pending } = useRunAction(action);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const save = (next: string[], success: string) => run({ portalId, tags: next }, success);
  const add = async () => {
    const problem = tagProblem(draft, tags);
    setError(problem);
    if (problem) return;
    if (await save([...tags, draft.trim()], `Tag "${draft.trim()}" added`)) setDraft("");
  };

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="tags-editor">
      <span className="text-sm font-medium text-fg-2" id={ids.label}>
        Tags
      </span>
      <ul className="contents" aria-labelledby={ids.label}>
        {tags.length === 0 ? <li className="text-sm text-fg-subtle">None yet</li> : null}
        {tags.map((tag) => (
          <li key={tag} className="inline-flex items-center gap-1 rounded-full bg-muted py-0.5 pr-1 pl-2.5 text-sm text-fg" data-testid="tag-chip">
            {tag}
            <button
              type="button"
              disabled={pending}
              onClick={() =>
                void save(
                  tags.filter((t) => t !== tag),
                  `Tag "${tag}" removed`,
                )
              }
              aria-label={`Remove tag ${tag}`}
              className="rounded-full p-0.5 text-fg-subtle hover:bg-track hover:text-fg focus-visible:outline-2 focus-visible:outline-brand-ink"
            >
              <X aria-hidden size={14} />
            </button>
          </li>
        ))}
      </ul>
      <form
        className="flex items-center gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <label htmlFor={ids.input} className="sr-only">
          New tag
        </label>
        <input
          id={ids.input}
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(null);
          }}
          placeholder="Add a tag"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
          className={`${CONTROL_HEIGHT_SM} w-36 rounded-md border border-line-strong bg-surface px-2 text-sm focus:border-brand-ink focus:ring-1 focus:ring-brand-ink focus:outline-none`}
        />
        <Button type="submit" size="sm" variant="secondary" disabled={pending}>
          <Plus aria-hidden size={14} />
          Add
        </Button>
      </form>
      {error ? <FieldError id={ids.error} message={error} /> : null}
    </div>
  );
}
