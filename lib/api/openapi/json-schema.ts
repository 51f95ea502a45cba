import { isDeepStrictEqual } from "node:util";
import { z } from "zod";

// zod → JSON Schema (2020-12, which OpenAPI 3.1 uses as is). Schemas with `.meta({ id })` become
// named components: zod emits them as `$defs` with `#/$defs/<id>` refs, moved here to
// `components.schemas` and re-pointed.

export type JsonSchema = { [key: string]: unknown };

export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  /** `input` for what clients send (defaults optional), `output` for what they receive. */
  convert(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const { $schema: _dialect, $defs, ...root } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
    const defs = ($defs ?? {}) as Record<string, JsonSchema>;
    const names = new Map<string, string>();
    for (const [id, def] of Object.entries(defs)) names.set(id, this.nameFor(id, def, io, defs));
    for (const [id, def] of Object.entries(defs)) this.schemas[names.get(id) ?? id] = repoint(def, names) as JsonSchema;
    return repoint(root, names) as JsonSchema;
  }

  /** A component's JSON, following one `$ref`. */
  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema["$ref"];
    if (typeof ref !== "string") return schema;
    return this.schemas[ref.replace("#/components/schemas/", "")] ?? schema;
  }

  // The same id may render differently as input and as output (defaults, transforms): the
  // second rendering gets a suffixed name instead of overwriting the first.
  private nameFor(id: string, def: JsonSchema, io: "input" | "output", defs: Record<string, JsonSchema>): string {
    const identity = new Map(Object.keys(defs).map((k) => [k, k]));
    const candidates = [id, io === "input" ? `${id}Input` : `${id}Output`];
    for (const name of candidates) {
      const existing = this.schemas[name];
      const renamed = new Map(identity).set(id, name);
      if (!existing || isDeepStrictEqual(existing, repoint(def, renamed))) return name;
    }
    return `${id}${Object.keys(this.schemas).length}`;
  }
}

function repoint(value: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => repoint(v, names));
  if (value === null || typeof value !== "object") return value;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")) {
      const id = v.slice("#/$defs/".length);
      out[k] = `#/components/schemas/${names.get(id) ?? id}`;
    } else {
      out[k] = repoint(v, names);
    }
  }
  return out;
}
