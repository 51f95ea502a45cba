import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./safe-return";

describe("safeReturnPath", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeReturnPath("/org/1/vault/2/folder/main?file=3")).toBe("/org/1/vault/2/folder/main?file=3");
    expect(safeReturnPath("/oauth/authorize?client_id=a")).toBe("/oauth/authorize?client_id=a");
  });

  it("refuses other sites and odd values", () => {
    for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "", undefined, 42, "javascript:alert(1)"]) {
      expect(safeReturnPath(bad)).toBe("/");
    }
  });
});
