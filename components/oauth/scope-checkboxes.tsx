import { FieldError } from "@/components/ui/field-error";
import { SCOPES, type Scope } from "@/lib/access/scopes";

/**
 * One checkbox per scope. For developers (API settings) it is labelled by the scope's name and
 * described by its meaning ("task:read"); for the person deciding on the consent screen
 * (`lead="meaning"`) the plain-language meaning is the label and the scope name comes second.
 */
export function ScopeCheckboxes({
  legend,
  name,
  scopes,
  checked,
  idPrefix,
  lead = "scope",
  error,
}: {
  legend: string;
  name: string;
  scopes: readonly Scope[];
  checked: readonly string[];
  idPrefix: string;
  lead?: "scope" | "meaning";
  /** A message about the choice as a whole (e.g. nothing ticked). */
  error?: string;
}) {
  return (
    <fieldset className="space-y-2" aria-describedby={error ? `${idPrefix}-scopes-error` : undefined}>
      <legend className="mb-2 text-sm font-medium text-fg-2">{legend}</legend>
      <FieldError id={`${idPrefix}-scopes-error`} message={error} />
      {scopes.map((scope) => {
        const id = `${idPrefix}-${scope.replace(":", "-")}`;
        return (
          <div key={scope} className="flex items-start gap-3">
            <input
              id={id}
              type="checkbox"
              name={name}
              value={scope}
              defaultChecked={checked.includes(scope)}
              aria-describedby={`${id}-meaning`}
              className="mt-1 h-4 w-4 rounded border-line-strong"
            />
            {lead === "meaning" ? (
              <div className="text-sm">
                <label htmlFor={id} className="font-medium text-fg">
                  {SCOPES[scope]}
                </label>
                <p id={`${id}-meaning`} className="font-mono text-xs text-fg-subtle">
                  {scope}
                </p>
              </div>
            ) : (
              <div className="text-sm">
                <label htmlFor={id} className="font-mono font-medium text-fg">
                  {scope}
                </label>
                <p id={`${id}-meaning`} className="text-fg-muted">
                  {SCOPES[scope]}
                </p>
              </div>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
