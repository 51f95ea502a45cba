import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv";

describe("parseCsv", () => {
  it("reads plain, quoted and multi-line fields with CRLF or LF line ends", () => {
    expect(parseCsv('name,amount\r\n"Smith, J.",12\n"He said ""hi""","a\nb"\n').rows).toEqual([
      ["name", "amount"],
      ["Smith, J.", "12"],
      ['He said "hi"', "a\nb"],
    ]);
  });

  it("keeps empty fields and a last line without a line end", () => {
    expect(parseCsv("a,,c\n,,").rows).toEqual([
      ["a", "", "c"],
      ["", "", ""],
    ]);
  });

  it("stops after maxRows and says so", () => {
    const text = Array.from({ length: 10 }, (_, i) => `row${i}`).join("\n");
    expect(parseCsv(text, 3)).toEqual({ rows: [["row0"], ["row1"], ["row2"]], truncated: true });
    expect(parseCsv(text, 10).truncated).toBe(false);
  });
});
