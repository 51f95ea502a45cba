import { FieldError } from "@/components/ui/field-error";
import { subscribableEventTypes } from "@/lib/events/subscribable";

const MEANING: Record<(typeof subscribableEventTypes)[number], string> = {
  "portal.created": "A portal is created",
  "portal.workflow_changed": "A portal's workflow state changes",
  "file.uploaded": "A file is uploaded",
  "file.signed": "A PDF signature is completed",
  "task.created": "A task is created",
  "task.completed": "A task is marked done",
  "guest.invited": "A guest is invited",
};

/** One checkbox per subscribable event, labelled by its name. */
export function EventCheckboxes({ checked, idPrefix, error }: { checked: readonly string[]; idPrefix: string; error?: string }) {
  return (
    <fieldset className="space-y-2" aria-invalid={error ? true : undefined} aria-describedby={error ? `${idPrefix}-events-error` : undefined}>
      <legend className="mb-2 text-sm font-medium text-fg-2">Events</legend>
      <FieldError id={`${idPrefix}-events-error`} message={error} />
      <div className="grid gap-2 sm:grid-cols-2">
        {subscribableEventTypes.map((event) => {
          const id = `${idPrefix}-${event.replace(/[._]/g, "-")}`;
          return (
            <div key={event} className="flex items-start gap-3">
              <input
                id={id}
                type="checkbox"
                name="events"
                value={event}
                defaultChecked={checked.includes(event)}
                aria-describedby={`${id}-meaning`}
                className="mt-1 h-4 w-4 rounded border-line-strong"
              />
              <div className="text-sm">
                <label htmlFor={id} className="font-mono font-medium text-fg">
                  {event}
                </label>
                <p id={`${id}-meaning`} className="text-fg-muted">
                  {MEANING[event]}
                </p>
              </div>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
