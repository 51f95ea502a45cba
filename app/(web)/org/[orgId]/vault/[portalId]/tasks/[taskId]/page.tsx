import { ArrowLeft, FileText, ShieldCheck } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { RemindersBadge, ReviewBadge, StatusBadge } from "@/components/tasks/task-badges";
import { DeleteTaskButton, EditDocumentDialog, EditFieldsDialog, TaskStatusButton } from "@/components/tasks/task-controls";
import { ACTION_LABELS, describePlacement, KIND_LABELS, REMINDER_HINT, type FieldKind } from "@/components/tasks/labels";
import { ReviewControls } from "@/components/tasks/review-controls";
import { EditTaskDialog } from "@/components/tasks/task-form-dialog";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { isUuid } from "@/lib/ids";
import { fileDownloadPath, portalPath, portalViewPath } from "@/lib/links";
import { toApiActionType } from "@/lib/tasks/action-types";
import { reminderLabel } from "@/lib/tasks/reminder-schedule";
import { getSignatureRecord, type SignatureRecord } from "@/lib/signing/signature-record";
import { getSigners } from "@/lib/tasks/signers";
import { REVIEWABLE } from "@/lib/tasks/review-task";
import { getTaskDetails } from "@/lib/tasks/task-details";
import { getPortalTask } from "@/lib/tasks/task-panel-data";
import { loadMemberPortal } from "../../load-portal";
import { orNotFound } from "@/lib/web/or-not-found";
import { deleteTaskAction, reviewTaskAction, setDocumentAction, setFormFieldsAction, setTaskStatusAction, updateTaskAction } from "../../task-actions";
import { portalPdfs } from "../load-pdfs";
import { fileActions } from "@/app/(web)/org/[orgId]/vault/[portalId]/bind-file-actions";
import { Day, Time } from "@/components/ui/time";

type Params = { orgId: string; portalId: string; taskId: string };

async function load({ orgId, portalId, taskId }: Params) {
  if (!isUuid(taskId)) notFound();
  const { viewer } = await loadMemberPortal(orgId, portalId);
  const [task, details, signature, signers] = await orNotFound(
    Promise.all([
      getPortalTask({ viewer, portalId, taskId }),
      getTaskDetails({ viewer, portalId, taskId }),
      getSignatureRecord({ viewer, portalId, taskId }),
      getSigners({ viewer, portalId, taskId }),
    ]),
  );
  return { viewer, task, details, signature, signers };
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const p = await params;
  const [{ task }, { portal }] = await Promise.all([load(p), loadMemberPortal(p.orgId, p.portalId)]);
  return { title: `${task.title} · ${portal.name}` };
}

const REMINDER_TONES = { sent: "success", skipped: "neutral", failed: "danger" } as const;

function formatValue(value: unknown): string {
  if (value === true) return "Yes";
  if (value === false) return "No";
  if (value === null || value === undefined || value === "") return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

export default async function TaskPage({ params }: { params: Promise<Params> }) {
  const p = await params;
  const { orgId, portalId } = p;
  const { viewer, task, details, signature, signers } = await load(p);
  const type = toApiActionType(task.actionType);
  const done = task.status === "Done";
  const back = portalViewPath(orgId, portalId, "tasks");
  const pdfs = type === "Sign Document" && !signature ? await portalPdfs(viewer, portalId) : [];
  const reviewable = (REVIEWABLE as readonly string[]).includes(task.actionType);
  // A Sign Document completes by its signature: the web offers no Complete before it, and no
  // Reopen after it (the signed copy is final; ask again with a new task).
  const statusButton = type === "Sign Document" ? done && !signature : true;
  const labelOf = new Map(details.formFields.map((f) => [f.id, f.label]));

  return (
    <article className="space-y-5" aria-labelledby="task-title">
      <Link href={back} className="inline-flex items-center gap-1 text-sm text-brand-ink hover:underline">
        <ArrowLeft aria-hidden size={14} />
        All tasks
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h2 id="task-title" className="text-xl font-semibold break-words">
            {task.title}
          </h2>
          <div className="flex flex-wrap items-center gap-2 text-sm text-fg-muted">
            <Badge tone="brand">{ACTION_LABELS[type]}</Badge>
            <StatusBadge status={task.status} dueDate={task.dueDate} now={new Date()} />
            <ReviewBadge task={task} />
            {task.sendReminder ? <RemindersBadge /> : null}
            <span>
              {task.dueDate ? (
                <>
                  Due <Time value={task.dueDate} />
                </>
              ) : (
                "No due date"
              )}
            </span>
            {task.completedAt ? (
              <span>
                Completed <Time value={task.completedAt} format="relative" />
              </span>
            ) : null}
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          {statusButton ? <TaskStatusButton portalId={portalId} taskId={task.id} done={done} action={setTaskStatusAction.bind(null, orgId)} /> : null}
          <EditTaskDialog
            portalId={portalId}
            taskId={task.id}
            action={updateTaskAction.bind(null, orgId)}
            initial={{ title: task.title, description: task.description, dueDate: task.dueDate, sendReminder: task.sendReminder }}
          />
          <DeleteTaskButton portalId={portalId} taskId={task.id} title={task.title} action={deleteTaskAction.bind(null, orgId)} backTo={back} />
        </div>
      </div>

      {task.description ? <p className="whitespace-pre-wrap text-fg">{task.description}</p> : null}

      {type === "Sign Document" && !done ? (
        <p className="text-sm text-fg-muted">
          {signers.signers.length > 0
            ? `This task completes when the last of its ${signers.signers.length} signers signs.`
            : "This task completes when the client signs the document in their portal."}
        </p>
      ) : null}

      {reviewable && (done || task.review === "returned") ? (
        <div data-testid="task-review">
          <Card title="Review">
            {done && task.review === "accepted" ? (
              <p className="text-sm text-success-strong" role="status">
                Accepted {task.reviewedAt ? <Time value={task.reviewedAt} format="relative" /> : null}. You can still send it back if something turns up.
              </p>
            ) : null}
            {done && task.review !== "accepted" ? (
              <p className="text-sm text-fg-2">
                The client sent this
                {task.completedAt ? (
                  <>
                    {" "}
                    <Time value={task.completedAt} format="relative" />
                  </>
                ) : null}
                . Check it, then accept it or send it back with a reason.
              </p>
            ) : null}
            {!done && task.review === "returned" ? (
              <div className="space-y-1 text-sm" role="status">
                <p className="font-medium text-warning">
                  Sent back {task.reviewedAt ? <Time value={task.reviewedAt} format="relative" /> : null}: waiting for the client.
                </p>
                <p className="whitespace-pre-wrap text-fg-2">“{task.reviewNote}”</p>
              </div>
            ) : null}
            {done ? (
              <div className="mt-3">
                <ReviewControls portalId={portalId} taskId={task.id} accepted={task.review === "accepted"} action={reviewTaskAction.bind(null, orgId)} />
              </div>
            ) : null}
          </Card>
        </div>
      ) : null}

      <div className="grid gap-4 md:grid-cols-2">
        <Card title="Assignees">
          {task.assignees.length === 0 ? (
            <p className="text-sm text-fg-muted">Nobody is assigned. Assignees are chosen when the task is created.</p>
          ) : (
            <ul className="space-y-1 text-sm">
              {task.assignees.map((a) => (
                <li key={a.userId}>
                  {a.name ?? a.email}{" "}
                  <span className="text-fg-subtle">
                    {a.name ? `(${a.email}) ` : ""}· {a.type}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>

        {type === "File Request" ? (
          <Card title="Files for this request">
            {details.files.length === 0 ? (
              <p className="text-sm text-fg-muted">No file yet. The client&apos;s upload to this request completes it.</p>
            ) : (
              <ul className="space-y-1 text-sm" data-testid="task-files">
                {details.files.map((f) => (
                  <li key={f.id} className="flex items-center gap-2">
                    <FileText aria-hidden size={14} />
                    <Link className="text-brand-ink hover:underline" href={`${portalPath(orgId, portalId)}?file=${f.id}`}>
                      {f.name}
                    </Link>
                    <a className="text-xs text-fg-muted underline" href={fileDownloadPath(orgId, portalId, f.id)}>
                      Download
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        ) : null}

        {type === "Question?" ? (
          <Card title="Answer">
            {details.answers.length === 0 ? (
              <p className="text-sm text-fg-muted">Not answered yet.</p>
            ) : (
              <ul className="space-y-2 text-sm" data-testid="task-answers">
                {details.answers.map((a, i) => (
                  <li key={i}>
                    <p className="whitespace-pre-wrap">{formatValue(a.value)}</p>
                    <p className="text-xs text-fg-subtle">
                      {a.by.name ?? a.by.email} · <Time value={a.at} format="relative" />
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        ) : null}

        {type === "Fill Form" ? (
          <Card
            title={
              <span className="flex items-center justify-between gap-2">
                Form
                {details.answers.length === 0 ? (
                  <EditFieldsDialog portalId={portalId} taskId={task.id} action={setFormFieldsAction.bind(null, orgId)} initial={details.formFields} />
                ) : null}
              </span>
            }
          >
            {details.formFields.length === 0 ? <p className="text-sm text-fg-muted">No fields yet: add them with Edit fields.</p> : null}
            <dl className="space-y-2 text-sm" data-testid="task-form-fields">
              {details.formFields.map((f) => {
                const answer = details.answers.find((a) => a.fieldId === f.id);
                return (
                  <div key={f.id}>
                    <dt className="font-medium">
                      {f.label}
                      {f.required ? <span className="text-danger"> *</span> : null}{" "}
                      <span className="text-xs font-normal text-fg-subtle">
                        {KIND_LABELS[f.kind as FieldKind] ?? f.kind}
                        {f.options.length > 0 ? `: ${f.options.join(", ")}` : ""}
                      </span>
                    </dt>
                    <dd className="text-fg-2">
                      {!answer ? (
                        <span className="text-fg-subtle">No answer yet</span>
                      ) : f.kind === "date" && typeof answer.value === "string" ? (
                        <Day value={answer.value} />
                      ) : (
                        formatValue(answer.value)
                      )}
                    </dd>
                  </div>
                );
              })}
            </dl>
            {details.answers.some((a) => a.fieldId && !labelOf.has(a.fieldId)) ? (
              <p className="mt-2 text-xs text-fg-subtle">Some answers belong to removed fields.</p>
            ) : null}
          </Card>
        ) : null}

        {type === "Sign Document" && signers.signers.length > 0 ? <SignersCard signers={signers} /> : null}

        {type === "Sign Document" && signature ? <SignedCard orgId={orgId} portalId={portalId} signature={signature} /> : null}

        {type === "Sign Document" && !signature ? (
          <Card
            title={
              <span className="flex items-center justify-between gap-2">
                Document to sign
                {signers.started ? null : (
                  <EditDocumentDialog
                    files={fileActions(orgId)}
                    portalId={portalId}
                    taskId={task.id}
                    action={setDocumentAction.bind(null, orgId)}
                    pdfs={pdfs}
                    current={details.document?.file.id}
                  />
                )}
              </span>
            }
          >
            {details.document ? (
              <p className="text-sm">
                <Link className="text-brand-ink hover:underline" href={`${portalPath(orgId, portalId)}?file=${details.document.file.id}`}>
                  {details.document.file.name}
                </Link>
                <span className="block text-fg-muted">{describePlacement(details.document.placement)}</span>
              </p>
            ) : (
              <p className="text-sm text-fg-muted">No document: choose a PDF of this portal.</p>
            )}
          </Card>
        ) : null}

        <Card title="Reminder log">
          {!task.sendReminder && details.reminders.length === 0 ? (
            <p className="text-sm text-fg-muted">Reminders are off. Edit the task, set a due date and turn them on: {REMINDER_HINT.toLowerCase()}.</p>
          ) : details.reminders.length === 0 ? (
            <p className="text-sm text-fg-muted">No reminder point reached yet.</p>
          ) : (
            <ul className="space-y-2 text-sm" data-testid="reminder-log">
              {details.reminders.map((r) => (
                <li key={`${r.offsetDays}-${r.scheduledFor.toISOString()}`} className="flex flex-wrap items-center gap-2">
                  <Badge tone={REMINDER_TONES[r.status as keyof typeof REMINDER_TONES] ?? "neutral"}>{r.status}</Badge>
                  <span>{reminderLabel(r.offsetDays).replace("d-", " days ").replace("due", "on the due date")}</span>
                  <Time value={r.scheduledFor} className="text-fg-subtle" />
                  {r.detail ? <span className="text-fg-subtle">· {r.detail}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </article>
  );
}

const SIGNER_STATUS = {
  signed: { label: "Signed", tone: "success" },
  to_sign: { label: "To sign now", tone: "brand" },
  waiting: { label: "Waiting for an earlier signer", tone: "neutral" },
} as const;

/** The named signers in order, each with their state. */
function SignersCard({ signers }: { signers: Awaited<ReturnType<typeof getSigners>> }) {
  return (
    <Card title={signers.order === "sequential" ? "Signers, in order" : "Signers, in any order"}>
      <ol className="space-y-2 text-sm" data-testid="task-signers">
        {signers.signers.map((s, i) => (
          <li key={s.userId} className="flex flex-wrap items-center gap-2">
            <span className="text-fg-subtle">{i + 1}.</span>
            <span className="break-words">
              {s.name ?? s.email} <span className="text-fg-subtle">({s.type === "guest" ? "guest" : "member"})</span>
            </span>
            <Badge tone={SIGNER_STATUS[s.status].tone}>{SIGNER_STATUS[s.status].label}</Badge>
            {s.signedAt ? <Time value={s.signedAt} className="text-fg-subtle" /> : null}
          </li>
        ))}
      </ol>
    </Card>
  );
}

/** Who signed, when and from where, with the signed copy, its certificate page and the original. */
function SignedCard({ orgId, portalId, signature }: { orgId: string; portalId: string; signature: SignatureRecord }) {
  const file = signature.signedFile;
  return (
    <Card
      title={
        <span className="flex items-center gap-2">
          <ShieldCheck aria-hidden size={18} className="text-success" /> Signed
        </span>
      }
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm" data-testid="signature-record">
        <dt className="text-fg-muted">Signer</dt>
        <dd>
          {signature.signerName ?? signature.signerEmail}
          {signature.signerName && signature.signerEmail ? <span className="text-fg-subtle"> ({signature.signerEmail})</span> : null}
        </dd>
        <dt className="text-fg-muted">Signed</dt>
        <dd>
          <Time value={signature.signedAt} />
        </dd>
        <dt className="text-fg-muted">IP address</dt>
        <dd>{signature.ip ?? "—"}</dd>
        {signature.method ? (
          <>
            <dt className="text-fg-muted">Signature</dt>
            <dd>{signature.method === "drawn" ? "Drawn" : "Typed name"}</dd>
          </>
        ) : null}
        {signature.userAgent ? (
          <>
            <dt className="text-fg-muted">Browser</dt>
            <dd className="break-words text-fg-2">{signature.userAgent}</dd>
          </>
        ) : null}
      </dl>
      <ul className="mt-3 space-y-1 text-sm">
        {file ? (
          <>
            <li className="flex flex-wrap items-center gap-2">
              <FileText aria-hidden size={14} />
              <Link className="text-brand-ink hover:underline" href={`${portalPath(orgId, portalId)}?file=${file.id}`}>
                {file.name}
              </Link>
              <a className="text-xs text-fg-muted underline" href={fileDownloadPath(orgId, portalId, file.id)}>
                Download
              </a>
            </li>
            {signature.certificatePage ? (
              <li>
                <a
                  className="text-brand-ink hover:underline"
                  href={`${fileDownloadPath(orgId, portalId, file.id, true)}#page=${signature.certificatePage}`}
                  data-testid="certificate-link"
                >
                  Certificate of signing (page {signature.certificatePage} of the signed copy)
                </a>
              </li>
            ) : null}
          </>
        ) : (
          <li className="text-fg-muted">The signed copy was deleted from the portal.</li>
        )}
        <li className="text-fg-2">
          Original:{" "}
          {signature.original ? (
            <Link className="text-brand-ink hover:underline" href={`${portalPath(orgId, portalId)}?file=${signature.original.id}`}>
              {signature.original.name}
            </Link>
          ) : (
            "deleted from the portal"
          )}
        </li>
      </ul>
    </Card>
  );
}
