import { describe, expect, it } from "vitest";
import { guestsOfRequest, InviteGuestsBodySchema } from "./schemas";

const parse = (body: unknown) => guestsOfRequest(InviteGuestsBodySchema.parse(body));

describe("guest invitation request", () => {
  it("trims, lower-cases and de-duplicates, keeping the first position and the first non-empty name", () => {
    expect(parse({ email: " B@X.io ", emails: ["a@x.io", "b@x.io", "A@X.IO "], names: ["", "Bee", "Ann"] })).toEqual([
      { email: "b@x.io", name: "Bee" },
      { email: "a@x.io", name: "Ann" },
    ]);
  });

  it("pairs names with emails by position; missing names are null", () => {
    expect(parse({ emails: ["a@x.io", "b@x.io"], names: [" Ann "] })).toEqual([
      { email: "a@x.io", name: "Ann" },
      { email: "b@x.io", name: null },
    ]);
  });

  it("names the invalid address and refuses the whole request", () => {
    const result = InviteGuestsBodySchema.safeParse({ emails: ["a@x.io", " Bad "] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["emails.1", 'Invalid email address "bad"']]);
  });

  it("needs at least one address and at most 100", () => {
    expect(InviteGuestsBodySchema.safeParse({}).success).toBe(false);
    expect(InviteGuestsBodySchema.safeParse({ emails: Array.from({ length: 100 }, (_, i) => `g${i}@x.io`) }).success).toBe(true);
    expect(InviteGuestsBodySchema.safeParse({ emails: Array.from({ length: 101 }, (_, i) => `g${i}@x.io`) }).success).toBe(false);
    expect(InviteGuestsBodySchema.safeParse({ email: "a@x.io", emails: Array.from({ length: 100 }, (_, i) => `g${i}@x.io`) }).success).toBe(false);
  });
});
