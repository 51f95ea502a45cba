import fc from "fast-check";
import { hostileValue } from "./hostile";

// Arbitraries from the OpenAPI document's JSON Schemas (2020-12, as lib/api/openapi emits them):
// values that mostly fit the schema, with a hostile value in place of any part of them now and then,
// so requests get past the first check and reach the code behind it.

export type JsonSchema = { [key: string]: unknown };

export interface SchemaContext {
  /** components.schemas, for $ref. */
  components: Record<string, JsonSchema>;
  /** Values that name real things of the test organization, by property name (e.g. file_id). */
  known: Record<string, string[]>;
}

const HOSTILE_WEIGHT = 1;
const VALID_WEIGHT = 6;

/** A value for `schema`: valid-ish, each part replaced by a hostile value with a small probability. */
export function arbitraryFor(schema: JsonSchema, ctx: SchemaContext, name = "", depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: VALID_WEIGHT, arbitrary: validish(schema, ctx, name, depth) }, { weight: HOSTILE_WEIGHT, arbitrary: hostileValue });
}

function validish(schema: JsonSchema, ctx: SchemaContext, name: string, depth: number): fc.Arbitrary<unknown> {
  const ref = schema["$ref"];
  if (typeof ref === "string") {
    const target = ctx.components[ref.replace("#/components/schemas/", "")];
    return target ? validish(target, ctx, name, depth) : fc.constant(null);
  }
  const variants = (schema["anyOf"] ?? schema["oneOf"]) as JsonSchema[] | undefined;
  if (variants) return fc.oneof(...variants.map((v) => arbitraryFor(v, ctx, name, depth + 1)));
  if ("const" in schema) return fc.constant(schema["const"]);
  const enumValues = schema["enum"] as unknown[] | undefined;
  if (enumValues) return fc.constantFrom(...enumValues);

  const type = Array.isArray(schema["type"]) ? (schema["type"] as string[]) : [schema["type"] as string | undefined];
  const arbs = type.map((t) => ofType(t, schema, ctx, name, depth));
  return arbs.length === 1 ? arbs[0]! : fc.oneof(...arbs);
}

function ofType(type: string | undefined, schema: JsonSchema, ctx: SchemaContext, name: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: num(schema["minimum"]) ?? -10, max: num(schema["maximum"]) ?? 1_000 });
    case "number":
      return fc.double({ min: num(schema["minimum"]) ?? -1e6, max: num(schema["maximum"]) ?? 1e6, noNaN: true });
    case "string":
      return stringFor(schema, ctx, name);
    case "array": {
      const items = (schema["items"] as JsonSchema | undefined) ?? {};
      return fc.array(arbitraryFor(items, ctx, name, depth + 1), {
        minLength: num(schema["minItems"]) ?? 0,
        maxLength: Math.min(num(schema["maxItems"]) ?? 5, 5),
      });
    }
    case "object":
      return objectFor(schema, ctx, depth);
    default:
      return hostileValue;
  }
}

function objectFor(schema: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema["properties"] as Record<string, JsonSchema> | undefined) ?? {};
  const required = new Set((schema["required"] as string[] | undefined) ?? []);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(properties)) record[key] = arbitraryFor(sub, ctx, key, depth + 1);
  const additional = schema["additionalProperties"];
  const extra =
    additional && typeof additional === "object"
      ? fc.dictionary(fc.string({ maxLength: 20 }), arbitraryFor(additional as JsonSchema, ctx, "", depth + 1), { maxKeys: 4 })
      : fc.constant({});
  // Required properties are left out now and then too (one in ten): that is a request to refuse.
  const requiredKeys = [...required].filter((k) => k in record);
  return fc
    .tuple(fc.record(record, { requiredKeys }), extra, fc.integer({ min: 0, max: 9 }), fc.constantFrom("", ...requiredKeys))
    .map(([value, more, dice, dropKey]) => {
      const out: Record<string, unknown> = { ...more, ...value };
      if (dice === 0 && dropKey) delete out[dropKey];
      return out;
    });
}

function stringFor(schema: JsonSchema, ctx: SchemaContext, name: string): fc.Arbitrary<string> {
  const known = ctx.known[name];
  const min = num(schema["minLength"]) ?? 0;
  const max = Math.min(num(schema["maxLength"]) ?? 60, 300);
  let base: fc.Arbitrary<string>;
  switch (schema["format"]) {
    case "uuid":
      base = fc.uuid();
      break;
    case "email":
      base = fc.emailAddress();
      break;
    case "uri":
      // No random domains: the server resolves webhook hosts, and this machine has no DNS to ask.
      base = fc.constantFrom(
        "https://hooks.example.com/in",
        "https://127.0.0.1/x",
        "http://10.0.0.1/",
        "https://[::1]:8443/",
        "https://169.254.169.254/latest",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "https://user:pw@hooks.example.com/",
      );
      break;
    case "date-time":
      base = fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
      break;
    default:
      base = fc.string({ unit: "grapheme", minLength: Math.max(min, 1), maxLength: Math.max(max, 1) });
  }
  return known?.length ? fc.oneof(fc.constantFrom(...known), base) : base;
}

const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
