import { BellRing } from "lucide-react";
import { Badge } from "@/components/ui/badge";

/** Open / Done, and overdue when an open task's due date has passed. */
export function StatusBadge({ status, dueDate, now }: { status: "Open" | "Done"; dueDate: Date | null; now: Date }) {
  if (status === "Done") return <Badge tone="success">Done</Badge>;
  if (dueDate && dueDate < now) return <Badge tone="danger">Overdue</Badge>;
  return <Badge tone="warning">Open</Badge>;
}

export function RemindersBadge() {
  return (
    <Badge tone="info">
      <BellRing aria-hidden size={12} className="mr-1 inline" />
      Reminders
    </Badge>
  );
}

const REVIEWED_TYPES = ["FileRequest", "Question", "FillForm"];

/** Where the firm's review of what the client sent stands: to review, accepted, or sent back. */
export function ReviewBadge({ task }: { task: { actionType: string; status: "Open" | "Done"; review: "accepted" | "returned" | null } }) {
  if (!REVIEWED_TYPES.includes(task.actionType)) return null;
  if (task.status === "Done" && task.review === null) return <Badge tone="brand">To review</Badge>;
  if (task.status === "Done" && task.review === "accepted") return <Badge tone="neutral">Accepted</Badge>;
  if (task.status === "Open" && task.review === "returned") return <Badge tone="neutral">Sent back</Badge>;
  return null;
}
