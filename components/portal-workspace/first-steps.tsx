import { CheckCircle2, Circle } from "lucide-react";
import Link from "next/link";
import type { PortalFirstSteps } from "@/lib/portals/first-steps";

interface Step {
  done: boolean;
  title: string;
  /** What to do, and where. */
  hint: string;
  href?: string;
  cta: string;
}

/**
 * A new portal's first steps, on its Files tab until all three are done: invite the client, ask
 * them for something, share a file. Each step links to where it is done and is ticked once done.
 */
export function FirstSteps({ steps, guestsHref, tasksHref }: { steps: PortalFirstSteps; guestsHref: string; tasksHref: string }) {
  const list: Step[] = [
    {
      done: steps.guests > 0,
      title: "Invite your client",
      hint: "They get an email with a link that opens this portal.",
      href: guestsHref,
      cta: "Invite a guest",
    },
    {
      done: steps.tasks > 0,
      title: "Ask for what you need",
      hint: "Request documents, ask a question, send a document to sign or a form, with a due date and reminders.",
      href: tasksHref,
      cta: "Create a task",
    },
    {
      done: steps.files > 0,
      title: "Share a file",
      hint: "Drop it on the upload area below; your client sees it when they open the portal.",
      cta: "",
    },
  ];
  const done = list.filter((s) => s.done).length;
  if (done === list.length) return null;
  return (
    <section aria-labelledby="first-steps-heading" className="rounded-lg border border-line bg-surface p-4 shadow-sm" data-testid="first-steps">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id="first-steps-heading" className="font-semibold">
          Get this portal started
        </h3>
        <p className="text-sm text-fg-muted">
          {done} of {list.length} done
        </p>
      </div>
      <ol className="mt-3 grid gap-3 md:grid-cols-3">
        {list.map((s) => (
          <li key={s.title} className="flex gap-2" data-testid="first-step" data-done={s.done ? "true" : "false"}>
            {s.done ? (
              <CheckCircle2 aria-hidden size={20} className="mt-0.5 shrink-0 text-success" />
            ) : (
              <Circle aria-hidden size={20} className="mt-0.5 shrink-0 text-fg-faint" />
            )}
            <div className="min-w-0 text-sm">
              <p className={`font-medium ${s.done ? "text-fg-subtle line-through" : "text-fg"}`}>
                {s.title}
                <span className="sr-only">{s.done ? " (done)" : " (to do)"}</span>
              </p>
              {s.done ? null : (
                <>
                  <p className="text-fg-muted">{s.hint}</p>
                  {s.href ? (
                    <Link href={s.href} className="mt-1 inline-block font-medium text-brand-ink underline">
                      {s.cta}
                    </Link>
                  ) : null}
                </>
              )}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
