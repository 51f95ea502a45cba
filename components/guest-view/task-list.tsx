"use client";

import { ChevronDown } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";

export interface TaskListItem {
  id: string;
  /** The row's line: title, type, due date and status (what the button says). */
  summary: ReactNode;
  /** What the task asks and its form, shown while the row is open. */
  panel: ReactNode;
}

/**
 * The client's open tasks as a compact list where one task is open at a time: each row is a button
 * (aria-expanded, aria-controls) over its panel. The first task is open at first, or the one a
 * link names (`#task-<id>`, as the request emails link). A closed panel stays in the page, hidden,
 * so what was typed in it is kept.
 */
export function TaskList({ tasks }: { tasks: TaskListItem[] }) {
  // The row the client opened (null: they closed it); one that has left the list (done) gives way
  // to the first.
  const [choice, setChoice] = useState<string | null | undefined>(undefined);
  const openId = choice === null ? null : choice !== undefined && tasks.some((t) => t.id === choice) ? choice : (tasks[0]?.id ?? null);
  const ids = tasks.map((t) => t.id).join(" ");
  useEffect(() => {
    const fromHash = () => {
      const id = /^#task-(.+)$/.exec(window.location.hash)?.[1];
      if (!id || !ids.split(" ").includes(id)) return;
      setChoice(id);
      document.getElementById(`task-${id}`)?.scrollIntoView({ block: "start" });
    };
    fromHash();
    window.addEventListener("hashchange", fromHash);
    return () => window.removeEventListener("hashchange", fromHash);
  }, [ids]);

  return (
    <ul className="divide-y divide-line overflow-hidden rounded-lg border border-line bg-surface" data-testid="guest-tasks">
      {tasks.map((task) => {
        const open = task.id === openId;
        return (
          <li key={task.id} id={`task-${task.id}`} className="scroll-mt-4" data-testid="guest-task">
            <h3>
              <button
                type="button"
                id={`task-button-${task.id}`}
                aria-expanded={open}
                aria-controls={`task-panel-${task.id}`}
                onClick={() => setChoice(open ? null : task.id)}
                className="flex w-full items-start justify-between gap-3 px-4 py-3 text-left hover:bg-subtle focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-ink sm:px-6"
              >
                <span className="min-w-0 flex-1">{task.summary}</span>
                <ChevronDown aria-hidden className={`mt-1 size-5 shrink-0 text-fg-subtle transition ${open ? "rotate-180" : ""}`} />
              </button>
            </h3>
            <div
              id={`task-panel-${task.id}`}
              role="region"
              aria-labelledby={`task-button-${task.id}`}
              hidden={!open}
              className="space-y-3 border-t border-line-soft px-4 pt-3 pb-4 sm:px-6"
              data-testid="guest-task-panel"
            >
              {task.panel}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
