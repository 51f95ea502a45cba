"use client";

import { useState } from "react";
import { FieldError } from "@/components/ui/field-error";
import { Select } from "@/components/ui/select";
import { ReorderButtons } from "./reorder-buttons";

// A Sign Document's signers in signing order (guests of the portal and members), and whether
// they sign one after another or in any order. Posted as `signers` (a JSON array of user ids)
// and `signing_order` (lib/tasks/signers.ts). No signers: one signature completes the task.

export interface SignerChoice {
  userId: string;
  name: string | null;
  email: string;
  kind: "guest" | "member";
}

const label = (s: SignerChoice) => `${s.name ? `${s.name} (${s.email})` : s.email} · ${s.kind}`;

export function SignerPicker({ choices, error }: { choices: SignerChoice[]; error?: string }) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [order, setOrder] = useState<"sequential" | "parallel">("sequential");
  const byId = new Map(choices.map((c) => [c.userId, c]));
  const remaining = choices.filter((c) => !chosen.includes(c.userId));
  const move = (i: number, by: number) =>
    setChosen((list) => {
      const next = [...list];
      [next[i], next[i + by]] = [next[i + by]!, next[i]!];
      return next;
    });
  return (
    <fieldset className="space-y-3" data-testid="signer-picker">
      <legend className="mb-1 text-sm font-medium text-fg-2">Signers</legend>
      <p className="text-xs text-fg-muted">Add everyone who signs, in order. Without signers, the person the task is assigned to (or any guest) signs once.</p>
      {chosen.length > 0 ? (
        <ol className="space-y-1 rounded-md border border-line p-2 text-sm">
          {chosen.map((id, i) => {
            const who = byId.get(id);
            const name = who ? label(who) : id;
            return (
              <li key={id} className="flex items-center gap-2" data-testid="signer-row">
                <span className="w-6 text-right text-fg-subtle">{i + 1}.</span>
                <span className="min-w-0 flex-1 break-words">{name}</span>
                <ReorderButtons index={i} count={chosen.length} name={name} onMove={move} onRemove={() => setChosen((l) => l.filter((x) => x !== id))} />
              </li>
            );
          })}
        </ol>
      ) : null}
      {remaining.length > 0 ? (
        <Select
          id="add-signer"
          label="Add a signer"
          placeholder="Choose a guest or member"
          value=""
          onChange={(e) => e.target.value && setChosen((l) => [...l, e.target.value])}
          options={remaining.map((c) => ({ value: c.userId, label: label(c) }))}
        />
      ) : null}
      {chosen.length > 1 ? (
        <div className="space-y-2 text-sm" role="radiogroup" aria-label="Signing order">
          <label className="flex items-center gap-2">
            <input type="radio" name="signing_order_choice" checked={order === "sequential"} onChange={() => setOrder("sequential")} />
            One after another, in this order (each is emailed when it is their turn)
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="signing_order_choice" checked={order === "parallel"} onChange={() => setOrder("parallel")} />
            In any order
          </label>
        </div>
      ) : null}
      <input type="hidden" name="signers" value={JSON.stringify(chosen)} />
      <input type="hidden" name="signing_order" value={order} />
      <FieldError id="signers-error" message={error} />
    </fieldset>
  );
}
