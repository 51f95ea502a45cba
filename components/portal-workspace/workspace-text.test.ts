import { describe, expect, it } from "vitest";
import { describeAudit } from "./describe-audit";
import { tagProblem } from "./tags-editor";

describe("describeAudit", () => {
  it("words the portal's history rows from their metadata", () => {
    expect(describeAudit("portal.workflow_changed", { from: "Onboarding", to: "In review" })).toBe("Moved the portal from “Onboarding” to “In review”");
    expect(describeAudit("portal.workflow_changed", { from: null, to: "In review" })).toBe("Moved the portal to “In review”");
    expect(describeAudit("portal.tags_changed", { from: [], to: ["vip", "2026"] })).toBe("Changed the tags from none to vip, 2026");
    expect(describeAudit("guest.invited", { email: "a@b.test" })).toBe("Invited a@b.test");
    expect(describeAudit("task.created", { title: "Bank statements" })).toBe("Created the task “Bank statements”");
  });
  it("shows an unknown action as stored, and survives metadata that is not an object", () => {
    expect(describeAudit("partner_link.verified", null)).toBe("partner link verified");
    expect(describeAudit("file.uploaded", ["x"])).toBe("Uploaded an item");
  });
});

describe("tagProblem", () => {
  it("checks a new tag as the API does", () => {
    expect(tagProblem("  ", [])).toBe("Type a tag first");
    expect(tagProblem(" vip ", ["vip"])).toBe('The portal already has the tag "vip"');
    expect(tagProblem("x".repeat(101), [])).toBe("A tag has at most 100 characters (this one has 101)");
    expect(
      tagProblem(
        "new",
        Array.from({ length: 50 }, (_, i) => `t${i}`),
      ),
    ).toBe("A portal has at most 50 tags: remove one first");
    expect(tagProblem(" ok ", ["vip"])).toBeNull();
  });
});
