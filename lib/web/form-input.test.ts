import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { errorState, formFields } from "./form-input";

function form(fields: [string, string][]): FormData {
  const data = new FormData();
  for (const [k, v] of fields) data.append(k, v);
  return data;
}

describe("formFields", () => {
  const schema = z.object({ name: z.string(), events: z.array(z.string()), tags: z.array(z.string()).optional(), enabled: z.string().optional() });

  it("gives list fields every value and other fields their first, without React's own fields", () => {
    const data = form([
      ["name", "a"],
      ["name", "b"],
      ["events", "x"],
      ["events", "y"],
      ["tags", "t"],
      ["$ACTION_ID_1", ""],
    ]);
    expect(formFields(data, schema)).toEqual({ name: "a", events: ["x", "y"], tags: ["t"] });
  });

  it("gives an unticked list an empty array, so one value or none is still a list", () => {
    expect(formFields(form([["name", "a"]]), schema)).toEqual({ name: "a", events: [], tags: [] });
    expect(formFields(form([["events", "x"]]), schema)).toEqual({ events: ["x"], tags: [] });
  });
});

describe("errorState", () => {
  it("puts an AppError about a shown field at that field, with its user message", () => {
    const e = new AppError("invalid_request", "events: must name at least one event", {}, { field: "events", userMessage: "must name at least one event" });
    expect(errorState(e, ["url", "events"])).toEqual({ fieldErrors: { events: "must name at least one event" } });
  });

  it("makes other AppErrors the form's message", () => {
    expect(errorState(new AppError("forbidden", "This needs the admin role"), ["url"])).toEqual({ error: "This needs the admin role" });
    const hidden = new AppError("invalid_request", "id: is invalid", {}, { field: "id", userMessage: "is invalid" });
    expect(errorState(hidden, ["url"])).toEqual({ error: "is invalid" });
  });

  it("maps zod issues per field, first message per field, and names hidden fields in the form's message", () => {
    const schema = z.object({ url: z.string().min(1, "is required"), id: z.string() });
    const zodError = schema.safeParse({ url: "", id: 1 }).error!;
    expect(errorState(zodError, ["url"])).toEqual({ fieldErrors: { url: "is required" } });
    expect(errorState(zodError, [])).toMatchObject({ error: expect.stringMatching(/^url: is required$/) });
  });

  it("leaves anything else to propagate", () => {
    expect(errorState(new Error("boom"), ["url"])).toBeNull();
  });
});
