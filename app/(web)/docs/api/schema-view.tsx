import type { JsonSchema } from "@/lib/api/openapi/json-schema";

// Renders the JSON Schemas of the OpenAPI document as field tables: enough to read a request or a
// response without a schema viewer. Named schemas link to their section on the page.

const asSchema = (value: unknown): JsonSchema | null => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonSchema) : null);

export function refName(schema: JsonSchema): string | null {
  const ref = schema["$ref"];
  return typeof ref === "string" ? ref.replace(/^#\/components\/schemas\//, "") : null;
}

/** A one-line type: `string (uuid)`, `array of Portal`, `string or null`, `one of "a", "b"`. */
export function TypeLabel({ schema }: { schema: JsonSchema }) {
  const name = refName(schema);
  if (name) return <a className="text-brand underline" href={`#schema-${name}`}>{name}</a>;
  const variants = (schema["anyOf"] ?? schema["oneOf"]) as unknown[] | undefined;
  if (Array.isArray(variants)) {
    return <>{variants.map((v, i) => <span key={i}>{i > 0 ? " or " : ""}<TypeLabel schema={asSchema(v) ?? {}} /></span>)}</>;
  }
  if (Array.isArray(schema["enum"])) return <>one of {(schema["enum"] as unknown[]).map((v) => JSON.stringify(v)).join(", ")}</>;
  const type = schema["type"];
  if (type === "array") {
    const items = asSchema(schema["items"]);
    return <>array of {items ? <TypeLabel schema={items} /> : "anything"}</>;
  }
  if (type === "object" && !schema["properties"] && schema["additionalProperties"]) {
    const values = asSchema(schema["additionalProperties"]);
    return <>object of {values && Object.keys(values).length > 0 ? <TypeLabel schema={values} /> : "anything"}</>;
  }
  const base = Array.isArray(type) ? type.join(" or ") : typeof type === "string" ? type : "any";
  const format = typeof schema["format"] === "string" ? ` (${schema["format"]})` : "";
  return <>{base + format}</>;
}

function constraints(schema: JsonSchema): string {
  const parts: string[] = [];
  if (schema["default"] !== undefined) parts.push(`default ${JSON.stringify(schema["default"])}`);
  if (typeof schema["minimum"] === "number") parts.push(`min ${schema["minimum"]}`);
  if (typeof schema["maximum"] === "number") parts.push(`max ${schema["maximum"]}`);
  if (typeof schema["minLength"] === "number") parts.push(`min length ${schema["minLength"]}`);
  if (typeof schema["maxLength"] === "number") parts.push(`max length ${schema["maxLength"]}`);
  return parts.join(", ");
}

/** An object's fields as a table; anything else as its type label. */
export function SchemaView({ schema, depth = 0 }: { schema: JsonSchema; depth?: number }) {
  const properties = asSchema(schema["properties"]);
  if (!properties || refName(schema)) return <p className="font-mono text-sm"><TypeLabel schema={schema} /></p>;
  const required = new Set(Array.isArray(schema["required"]) ? (schema["required"] as string[]) : []);
  return (
    <table className="w-full text-left text-sm">
      <thead className="text-xs uppercase text-slate-500">
        <tr><th className="py-1 pr-4">Field</th><th className="py-1 pr-4">Type</th><th className="py-1">Notes</th></tr>
      </thead>
      <tbody>
        {Object.entries(properties).map(([name, value]) => {
          const property = asSchema(value) ?? {};
          const nested = depth < 2 && asSchema(property["properties"]);
          return (
            <tr key={name} className="border-t border-slate-100 align-top">
              <td className="py-1 pr-4 font-mono">{name}{required.has(name) ? <span className="text-red-600" title="required">*</span> : null}</td>
              <td className="py-1 pr-4 font-mono">{nested ? <SchemaView schema={property} depth={depth + 1} /> : <TypeLabel schema={property} />}</td>
              <td className="py-1 text-slate-600">{[property["description"], constraints(property)].filter(Boolean).join("; ")}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
