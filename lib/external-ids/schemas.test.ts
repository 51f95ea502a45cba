import { describe, expect, it } from "vitest";
import { ExternalSystemIdsPatchSchema, systemKeyOf, toExternalIdChanges } from "./schemas";

describe("ExternalSystemIdsPatchSchema", () => {
  it("accepts ids up to 256 characters, null to delete, and a 6-digit partner id under any spelling", () => {
    const patch = { Karbon: "x".repeat(256), xero: null, PARTNER: "000123" };
    expect(ExternalSystemIdsPatchSchema.parse(patch)).toEqual(patch);
  });

  it.each([
    [{ a: "1", A: "2" }, ["A"]],
    [{ karbon: "1", " karbon ": "2" }, [" karbon "]],
    [{ partner: "12345" }, ["partner"]],
    [{ Partner: "1234567" }, ["Partner"]],
    [{ partner: " 123456" }, ["partner"]],
    [{ k: "x".repeat(257) }, ["k"]],
    [{ k: "" }, ["k"]],
    [{ "": "1" }, [""]],
    [{ [" ".repeat(3)]: "1" }, ["   "]],
  ])("refuses %j, naming the key", (patch, path) => {
    const result = ExternalSystemIdsPatchSchema.safeParse(patch);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });

  it("refuses more than 50 keys", () => {
    const patch = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`s${i}`, "1"]));
    expect(ExternalSystemIdsPatchSchema.safeParse(patch).success).toBe(false);
  });

  it("a partner id of null deletes without a format check", () => {
    expect(ExternalSystemIdsPatchSchema.parse({ partner: null })).toEqual({ partner: null });
  });
});

describe("toExternalIdChanges", () => {
  it("trims keys and adds their lower-case form; values stay exactly as sent", () => {
    expect(toExternalIdChanges({ " Karbon ": " K-1 ", XERO: null })).toEqual([
      { system: "Karbon", systemKey: "karbon", value: " K-1 " },
      { system: "XERO", systemKey: "xero", value: null },
    ]);
    expect(systemKeyOf("  HubSpot")).toBe("hubspot");
  });
});
