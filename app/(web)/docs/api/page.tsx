import type { Metadata } from "next";
import { buildOpenApiDocument } from "@/lib/api/openapi/document";
import type { OpenApiDocument, OpenApiOperation, OpenApiResponse } from "@/lib/api/openapi/types";
import { SchemaView, TypeLabel } from "./schema-view";

// Public API reference (no sign-in): the same generated document as /api/v1/openapi.json, made
// readable. Rendered per request because the URLs in it come from the runtime configuration.
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API reference" };

const METHOD_COLOURS: Record<string, string> = {
  get: "bg-sky-100 text-sky-800",
  post: "bg-emerald-100 text-emerald-800",
  patch: "bg-amber-100 text-amber-800",
  put: "bg-amber-100 text-amber-800",
  delete: "bg-red-100 text-red-800",
};

type Entry = { method: string; path: string; op: OpenApiOperation };

function byTag(doc: OpenApiDocument): Map<string, Entry[]> {
  const groups = new Map<string, Entry[]>(doc.tags.map((t) => [t.name, []]));
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags[0] ?? "Other";
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, op }]);
    }
  }
  return groups;
}

export default function ApiReferencePage() {
  const doc = buildOpenApiDocument();
  const oauth = doc.components.securitySchemes["oauth2"] as { flows: { authorizationCode: { authorizationUrl: string; tokenUrl: string; scopes: Record<string, string> } } };
  const flow = oauth.flows.authorizationCode;
  return (
    <main className="mx-auto max-w-5xl space-y-10 px-4 py-10">
      <header className="space-y-3">
        <h1 className="text-2xl font-semibold">{doc.info.title} <span className="text-base font-normal text-slate-500">version {doc.info.version}</span></h1>
        {doc.info.description.split("\n\n").map((p) => <p key={p} className="text-slate-700"><InlineCode text={p} /></p>)}
        <p className="text-sm">Base URL <code className="font-mono">{doc.servers[0]?.url}</code> · Machine-readable: <a className="text-brand underline" href="/api/v1/openapi.json">/api/v1/openapi.json</a></p>
      </header>

      <section className="space-y-3">
        <h2 className="text-xl font-semibold">Authentication</h2>
        <p className="text-sm text-slate-700">OAuth 2.0 authorization code flow. Authorize at <code className="font-mono">{flow.authorizationUrl}</code>, exchange the code at <code className="font-mono">{flow.tokenUrl}</code>, then send <code className="font-mono">Authorization: Bearer &lt;access token&gt;</code>.</p>
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase text-slate-500"><tr><th className="py-1 pr-4">Scope</th><th className="py-1">Allows</th></tr></thead>
          <tbody>{Object.entries(flow.scopes).map(([scope, meaning]) => <tr key={scope} className="border-t border-slate-100"><td className="py-1 pr-4 font-mono">{scope}</td><td className="py-1">{meaning}</td></tr>)}</tbody>
        </table>
      </section>

      {[...byTag(doc)].filter(([, entries]) => entries.length > 0).map(([tag, entries]) => (
        <section key={tag} className="space-y-4">
          <h2 className="text-xl font-semibold">{tag}</h2>
          {entries.map((entry) => <OperationCard key={entry.op.operationId} entry={entry} errors={doc.components.responses} />)}
        </section>
      ))}

      <section id="errors" className="space-y-3">
        <h2 className="text-xl font-semibold">Errors</h2>
        <p className="text-sm text-slate-700">Every error is JSON <code className="font-mono">{"{error, error_description}"}</code>. Every response carries <code className="font-mono">X-Request-Id</code> and <code className="font-mono">X-API-Version</code>; authenticated ones also <code className="font-mono">X-RateLimit-Limit</code>, <code className="font-mono">X-RateLimit-Remaining</code> and <code className="font-mono">X-RateLimit-Reset</code>.</p>
        <ul className="space-y-1 text-sm">
          {Object.entries(doc.components.responses).map(([status, response]) => (
            <li key={status} id={`error-${status}`}><span className="font-mono">{status}</span> {"description" in response ? response.description : null}</li>
          ))}
        </ul>
      </section>

      <section className="space-y-4">
        <h2 className="text-xl font-semibold">Schemas</h2>
        {Object.entries(doc.components.schemas).map(([name, schema]) => (
          <div key={name} id={`schema-${name}`} className="rounded-lg border border-slate-200 bg-white p-4">
            <h3 className="mb-2 font-mono font-semibold">{name}</h3>
            {typeof schema["description"] === "string" ? <p className="mb-2 text-sm text-slate-600">{schema["description"]}</p> : null}
            <SchemaView schema={schema} />
          </div>
        ))}
      </section>
    </main>
  );
}

/** The document's descriptions use Markdown code spans; shown as <code>, the rest as text. */
function InlineCode({ text }: { text: string }) {
  return <>{text.split("`").map((part, i) => (i % 2 === 1 ? <code key={i} className="font-mono text-sm">{part}</code> : part))}</>;
}

type Responses = OpenApiDocument["components"]["responses"];

function OperationCard({ entry: { method, path, op }, errors }: { entry: Entry; errors: Responses }) {
  const scope = op["x-required-scope"];
  const body = op.requestBody?.content["application/json"].schema;
  return (
    <article id={op.operationId} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center gap-3">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-semibold uppercase ${METHOD_COLOURS[method] ?? "bg-slate-100"}`}>{method}</span>
        <code className="font-mono text-sm">{path}</code>
        <span className="ml-auto text-xs text-slate-500">{scope === undefined ? "no token needed" : scope === null ? "any valid token" : <>scope <code className="font-mono">{scope}</code></>}</span>
      </div>
      <p className="text-slate-800">{op.summary}</p>
      {op.description ? <p className="text-sm text-slate-600">{op.description}</p> : null}
      {op.parameters.length > 0 ? (
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase text-slate-500"><tr><th className="py-1 pr-4">Parameter</th><th className="py-1 pr-4">In</th><th className="py-1 pr-4">Type</th><th className="py-1">Notes</th></tr></thead>
          <tbody>
            {op.parameters.map((p) => (
              <tr key={`${p.in}-${p.name}`} className="border-t border-slate-100 align-top">
                <td className="py-1 pr-4 font-mono">{p.name}{p.required ? <span className="text-red-600" title="required">*</span> : null}</td>
                <td className="py-1 pr-4">{p.in}</td>
                <td className="py-1 pr-4 font-mono"><TypeLabel schema={p.schema} /></td>
                <td className="py-1 text-slate-600">{p.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {body ? <div><h4 className="mb-1 text-sm font-semibold">Request body (JSON)</h4><SchemaView schema={body} /></div> : null}
      <div>
        <h4 className="mb-1 text-sm font-semibold">Responses</h4>
        <ul className="space-y-1 text-sm">{Object.entries(op.responses).map(([status, response]) => <ResponseLine key={status} status={status} response={response} errors={errors} />)}</ul>
      </div>
    </article>
  );
}

function ResponseLine({ status, response, errors }: { status: string; response: OpenApiResponse; errors: Responses }) {
  if ("$ref" in response) {
    const shared = errors[response.$ref.replace("#/components/responses/", "")];
    // The error codes: the part of the shared description before its first colon.
    const codes = shared && "description" in shared ? shared.description.split(":")[0] : "Error";
    return <li><span className="font-mono">{status}</span> <a className="text-slate-600 underline" href={`#error-${status}`}>{codes}</a></li>;
  }
  const schema = response.content?.["application/json"].schema;
  return (
    <li>
      <span className="font-mono">{status}</span> {response.description}
      {schema ? <> · <span className="font-mono"><TypeLabel schema={schema} /></span></> : null}
    </li>
  );
}
