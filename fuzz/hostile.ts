import fc from "fast-check";

// Values a hostile or careless client sends where the API expects something else.

/** Strings that have broken text handling before: NUL, lone surrogates, control and odd unicode. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "a\u0000b",
    "\u0000",
    "\ud800",
    "x\udfffy",
    "\ud83d",
    "\u202e\u0000evil",
    "\r\n\t",
    "\ufeff",
    "\uffff",
    "💩".repeat(3),
    "e\u0301\u0301\u0301",
    '\'; DROP TABLE "Portal"; --',
    "../../etc/passwd",
    "%00",
    "${jndi:ldap://x}",
    "<script>alert(1)</script>",
    "   ",
    "",
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.integer({ min: 1_000, max: 300_000 }).map((n) => "x".repeat(n)),
);

/** Numbers JSON can carry that code rarely expects. */
const hostileNumber: fc.Arbitrary<number> = fc.constantFrom(-1, 0, -0, 0.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, Number.MIN_VALUE);

/** Any JSON value of the wrong type, or deeply nested. */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, [null], { "": null }, { __proto__: { admin: true } }, { constructor: { prototype: {} } }),
  fc.jsonValue({ maxDepth: 3 }),
  // Deeper nesting goes in as raw text (hostileRawBody): JSON.stringify itself recurses.
  fc.integer({ min: 50, max: 500 }).map((depth) => nest(depth)),
);

function nest(depth: number): unknown {
  let value: unknown = "deep";
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** A hostile value of any kind, for a leaf of a schema. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber, wrongType);

/** Raw request bodies that are not the JSON an operation expects at all. */
export const hostileRawBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", "{", "}", "null", "[]", '"x"', '{"a":1,}', "\u0000", '{"name":"\\ud800"}', '{"name":"a\\u0000b"}', "1e999"),
  fc.integer({ min: 1_000, max: 100_000 }).map((n) => "[".repeat(n) + "]".repeat(n)),
  fc.integer({ min: 1_000, max: 100_000 }).map((n) => '{"a":'.repeat(n) + "1" + "}".repeat(n)),
  fc.string({ unit: "binary", maxLength: 200 }),
);

/** A path segment: as a client would write it in a URL (already encoded, or badly encoded). */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("%ff%fe", "%ED%A0%80", "%C0%AF", "%", "%zz", "%00", "%2e%2e", "%2F", "..%2f..%2f", "%E2%80%AE", "null", "undefined", "0", "-1", "1e9"),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid().map((u) => `${u}%00`),
  hostileString.map((s) => encodeURIComponent(toWellFormed(s)).slice(0, 3_000)),
  fc.string({ unit: "binary-ascii", maxLength: 30 }).map((s) => s.replace(/[/?#]/g, "")),
);

/** encodeURIComponent throws on lone surrogates; those are sent badly encoded on purpose elsewhere. */
export function toWellFormed(s: string): string {
  return s.replace(/[\ud800-\udfff]/g, (c, i: number, all: string) => {
    const code = c.charCodeAt(0);
    const next = all.charCodeAt(i + 1);
    const prev = all.charCodeAt(i - 1);
    if (code < 0xdc00 && next >= 0xdc00 && next <= 0xdfff) return c;
    if (code >= 0xdc00 && prev >= 0xd800 && prev < 0xdc00) return c;
    return "\ufffd";
  });
}

/** A query value, encoded (or badly encoded) for the URL. */
export const queryValue: fc.Arbitrary<string> = fc.oneof(
  hostileSegment,
  hostileString.map((s) => encodeURIComponent(toWellFormed(s)).slice(0, 3_000)),
  fc.constantFrom("1", "0", "-5", "100000", "true", "false", "", "%00", "%ff"),
);
