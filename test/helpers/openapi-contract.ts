/**
 * Reads a response schema back out of the served OpenAPI document and turns it into a validator
 * (zod's JSON Schema reader), so a contract test checks live answers against what API clients
 * read — the document — not against the zod views it was generated from.
 */
import { z } from "zod";

/** As much of an OpenAPI document as this reads (the built one and the served JSON both fit). */
export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown> };
}
type Operation = { responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }> };

/** The JSON response schema of one operation and status, or undefined when the document has none. */
export function responseSchemaOf(document: OpenApiDocument, method: string, path: string, status: number) {
  const operation = document.paths[path]?.[method] as Operation | undefined;
  const content = operation?.responses?.[String(status)]?.content;
  // The chat's one streaming route documents its SSE chunks under text/event-stream; a file
  // route (an export) its CSV or Markdown as text.
  return (content?.["application/json"] ?? content?.["text/event-stream"] ?? Object.values(content ?? {})[0])?.schema;
}

/** A validator for one documented response; throws when the operation documents no schema for that status. */
export function documentedResponse(document: OpenApiDocument, method: string, path: string, status: number): z.ZodType {
  const schema = responseSchemaOf(document, method, path, status);
  if (!schema) throw new Error(`${method.toUpperCase()} ${path} documents no ${status} JSON schema`);
  // zod's reader resolves only `#/$defs/…` references: carry the components along under that name.
  const root = JSON.parse(JSON.stringify({ ...schema, $defs: document.components.schemas }).replaceAll('"#/components/schemas/', '"#/$defs/'));
  return z.fromJSONSchema(root);
}

/** The issues of a failed validation, one line each, for an assertion message. */
export function contractIssues(validator: z.ZodType, body: unknown): string[] {
  const result = validator.safeParse(body);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
}
