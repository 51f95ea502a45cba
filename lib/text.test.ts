import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findTextProblem, isStorableText, MAX_JSON_DEPTH, textProblem } from "./text";

describe("textProblem", () => {
  it.each(["a\u0000b", "\ud800", "x\udc00", "\u0000"])("refuses %j", (value) => {
    expect(textProblem(value)).toMatch(/NUL characters or unpaired surrogates/);
  });

  it.each(["", "Müller & Søn", "日本語 🎉", "tab\there", "\ud83c\udf89"])("accepts %j", (value) => {
    expect(textProblem(value)).toBeNull();
  });
});

describe("findTextProblem", () => {
  it("names the field, the array index and the object key", () => {
    expect(findTextProblem({ name: "a\u0000b" }, "Request body")).toBe("name: Must not contain NUL characters or unpaired surrogates");
    expect(findTextProblem({ tags: ["ok", "\ud800"] }, "Request body")).toMatch(/^tags\.1: /);
    expect(findTextProblem({ externalSystemIds: { crm: "x\u0000" } }, "Request body")).toMatch(/^externalSystemIds\.crm: /);
    expect(findTextProblem({ externalSystemIds: { "c\u0000": "x" } }, "Request body")).toMatch(/^externalSystemIds: a key must not contain/);
    expect(findTextProblem("\u0000", "Request body")).toMatch(/^Request body: /);
    expect(findTextProblem({ a: 1, b: [true, null, { c: "fine" }] }, "Request body")).toBeNull();
  });

  // Property: any JSON value is refused exactly when one of its strings (or keys) has NUL or a lone surrogate.
  it("agrees with a direct check over arbitrary JSON (fixed seed)", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "\u0000", "\ud800", "\udfff", "\ud83c\udf89", "é"), maxLength: 6 });
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { maxDepth: 3 },
        text,
        fc.integer(),
        fc.constant(null),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(text, tie("value"), { maxKeys: 3 }),
      ),
    })).value;
    const strings = (v: unknown): string[] =>
      typeof v === "string" ? [v] : typeof v === "object" && v !== null ? Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)]) : [];
    fc.assert(
      fc.property(json, (value) => {
        expect(findTextProblem(value, "Request body") === null).toBe(strings(value).every(isStorableText));
      }),
      { seed: 20261123, numRuns: 300 },
    );
  });
});

describe("findTextProblem on hostile shapes", () => {
  it("refuses nesting deeper than MAX_JSON_DEPTH without exhausting the stack", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(findTextProblem(deep, "Request body")).toMatch(/^(0\.){63}0: Nested more than 64 levels deep$/);
    let fine: unknown = "leaf";
    for (let i = 0; i < MAX_JSON_DEPTH; i += 1) fine = { a: fine };
    expect(findTextProblem(fine, "Request body")).toBeNull();
  });

  it("reports a bad key before the problems of later siblings and after those of earlier ones", () => {
    expect(findTextProblem({ a: "ok", ["b\u0000"]: 1, c: "x\u0000" }, "Request body")).toMatch(/^Request body: a key/);
    expect(findTextProblem({ a: { deep: "x\u0000" }, ["b\u0000"]: 1 }, "Request body")).toBe("a.deep: Must not contain NUL characters or unpaired surrogates");
  });
});
