import { describe, expect, it } from "vitest";
import { contentTypeProblem, extensionOf, filenameProblem } from "./filename";

describe("file names", () => {
  it.each(["report.pdf", "Q4 2026 – Bilanz.xlsx", "a".repeat(255), ".env", "no-extension", "می\u200Cخواهم.pdf", "\u{1F468}\u200D\u{1F469}.jpg", "تقرير.pdf"])(
    "accepts %j",
    (name) => {
      expect(filenameProblem(name)).toBeNull();
    },
  );

  it.each([
    ["", "Must not be empty"],
    ["a".repeat(256), "At most 255 characters"],
    ["../etc/passwd", "Must not contain path separators"],
    ["dir\\file.txt", "Must not contain path separators"],
    ["line\nbreak.txt", "Must not contain control characters"],
    ["nul\u0000.txt", "Must not contain control characters"],
    ["c1\u0085.txt", "Must not contain control characters"],
    ["..", "Must be a file name"],
    ["invoice\u202Efdp.exe", "Must not contain control, invisible or bidirectional formatting characters (U+202E)"],
    ["a\u202A.txt", "Must not contain control, invisible or bidirectional formatting characters (U+202A)"],
    ["a\u2069.txt", "Must not contain control, invisible or bidirectional formatting characters (U+2069)"],
    ["a\u200E.txt", "Must not contain control, invisible or bidirectional formatting characters (U+200E)"],
    ["a\u2028.txt", "Must not contain control, invisible or bidirectional formatting characters (U+2028)"],
    ["a\u{E0041}.txt", "Must not contain control, invisible or bidirectional formatting characters (U+E0041)"],
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
