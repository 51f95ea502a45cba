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
