import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { eventDataSchemas, eventTypes, isEventType, relayedEventSchemas, subscribableEventTypes, type EventData } from "@/lib/events/types";

const fileUploaded: EventData<"file.uploaded"> = {
  file_id: randomUUID(),
  name: "a.pdf",
  extension: "pdf",
  size: 0,
  content_type: "application/pdf",
  uploaded_by: null,
  uploaded_by_email: null,
  uploaded_by_name: null,
  task_id: randomUUID(),
};

describe("event schemas", () => {
  it("offer exactly the spec's events to webhooks", () => {
    expect([...subscribableEventTypes].sort()).toEqual(
      ["file.signed", "file.uploaded", "guest.invited", "portal.created", "portal.workflow_changed", "task.completed", "task.created"].sort(),
    );
    expect(eventTypes).toEqual(expect.arrayContaining([...subscribableEventTypes, "portal.unlinked"]));
    expect(isEventType("webhook.test")).toBe(false);
    expect(isEventType("toString")).toBe(false);
    expect(isEventType("file.signed")).toBe(true);
  });

  it("accept an event's own fields and refuse unknown ones", () => {
    expect(eventDataSchemas["file.uploaded"].parse(fileUploaded)).toEqual(fileUploaded);
    expect(eventDataSchemas["file.uploaded"].safeParse({ ...fileUploaded, portal_name: "x" }).success).toBe(false);
  });

  it("refuse wrong values", () => {
    const s = eventDataSchemas;
    expect(s["file.uploaded"].safeParse({ ...fileUploaded, size: 1.5 }).success).toBe(false);
    expect(s["file.uploaded"].safeParse({ ...fileUploaded, size: -1 }).success).toBe(false);
    expect(s["guest.invited"].safeParse({ guest_email: "nope", guest_name: null, invited_by: null }).success).toBe(false);
    const task = { task_id: randomUUID(), title: "t", due_date: null, status: "Open" };
    expect(s["task.created"].safeParse({ ...task, action_type: "FileRequest" }).success).toBe(false);
    expect(s["task.created"].safeParse({ ...task, action_type: "File Request" }).success).toBe(true);
    expect(s["task.created"].safeParse({ ...task, action_type: "General", due_date: "tomorrow" }).success).toBe(false);
    expect(s["portal.unlinked"].safeParse({ customer_id: "12345" }).success).toBe(false);
  });

  it("leave file_id out of task.completed unless an upload completed the task", () => {
    const done = { task_id: randomUUID(), action_type: "General", status: "Done", attached_files: [] };
    expect(eventDataSchemas["task.completed"].parse(done)).toEqual(done);
  });

  it("give every event type a relayed schema with the envelope in front", () => {
    expect(Object.keys(relayedEventSchemas).sort()).toEqual([...eventTypes].sort());
    const envelope = { event_id: randomUUID(), org_id: randomUUID(), portal_id: null };
    expect(relayedEventSchemas["file.uploaded"].parse({ ...envelope, ...fileUploaded })).toEqual({
      ...envelope,
      ...fileUploaded,
    });
    expect(relayedEventSchemas["file.uploaded"].safeParse(fileUploaded).success).toBe(false);
  });
});
