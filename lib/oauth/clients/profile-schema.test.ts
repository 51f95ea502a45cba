import { describe, expect, it } from "vitest";
import { clientProfileSchema } from "./profile-schema";

const parse = (input: Partial<Record<"publisherName" | "websiteUrl" | "logoUrl", string>>) =>
  clientProfileSchema.safeParse({ publisherName: "", websiteUrl: "", logoUrl: "", ...input });

describe("clientProfileSchema", () => {
  it("accepts https values and turns empty ones into none", () => {
    expect(parse({ publisherName: " Ledger Co ", websiteUrl: "https://ledger.example", logoUrl: "https://cdn.ledger.example/logo.svg" }).data).toEqual({
      publisherName: "Ledger Co",
      websiteUrl: "https://ledger.example",
      logoUrl: "https://cdn.ledger.example/logo.svg",
    });
    expect(parse({}).data).toEqual({ publisherName: null, websiteUrl: null, logoUrl: null });
  });

  it("refuses a website that is not https, and says so at the field", () => {
    for (const websiteUrl of ["http://ledger.example", "javascript:alert(1)", "ledger.example", "https://user:pw@ledger.example", "ftp://ledger.example"]) {
      const result = parse({ websiteUrl });
      expect(result.success, websiteUrl).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(["websiteUrl"]);
      expect(result.error?.issues[0]?.message).toContain("https");
    }
  });

  it("refuses a logo that is not an https image URL", () => {
    for (const logoUrl of [
      "http://ledger.example/logo.png",
      "https://ledger.example/",
      "https://ledger.example/logo.exe",
      "data:image/png;base64,AAAA",
      "https://ledger.example/logo.png.html",
    ]) {
      const result = parse({ logoUrl });
      expect(result.success, logoUrl).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(["logoUrl"]);
    }
    expect(parse({ logoUrl: "https://ledger.example/a/logo.PNG?v=2" }).success).toBe(true);
  });

  it("limits the publisher's name", () => {
    expect(parse({ publisherName: "x".repeat(101) }).success).toBe(false);
  });
});
