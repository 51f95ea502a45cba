import { describe, expect, it } from "vitest";
import { contentTypeProblem, extensionOf, filenameProblem } from "./filename";

describe("file names", () => {
  it.each(["report.pdf", "Q4 2026 – Bilanz.xlsx", "a".repeat(255), ".env", "no-extension"])("accepts %j", (name) => {
    expect(filenameProblem(name)).toBeNull();
  });

  it.each([
    ["", "Must not be empty"],
    ["a".repeat(256), "At most 255 characters"],
    ["../etc/passwd", "Must not contain path separators"],
    ["dir\\file.txt", "Must not contain path separators"],
    ["line\nbreak.txt", "Must not contain control characters"],
    ["nul\u0000.txt", "Must not contain control characters"],
    ["c1\u0085.txt", "Must not contain control characters"],
    ["..", "Must be a file name"],
  ])("refuses %j: %s", (name, problem) => {
    expect(filenameProblem(name)).toBe(problem);
  });

  it.each([
    ["report.PDF", "pdf"],
    ["archive.tar.gz", "gz"],
    ["README", ""],
    [".env", ""],
    ["name.", ""],
  ])("the extension of %j is %j", (name, extension) => {
    expect(extensionOf(name)).toBe(extension);
  });

  it("checks media types", () => {
    expect(contentTypeProblem("application/pdf")).toBeNull();
    expect(contentTypeProblem("text/plain; charset=utf-8")).toBeNull();
    expect(contentTypeProblem("pdf")).not.toBeNull();
    expect(contentTypeProblem("text/plain\r\nX-Evil: 1")).not.toBeNull();
  });
});
