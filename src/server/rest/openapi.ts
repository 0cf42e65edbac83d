import { z } from "zod";
import { ApiErrorView, TextDocumentView, viewComponents, viewRef } from "./openapi-views";
import type { RestRoute } from "./rest-route";

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");
const pathParams = (path: string) => [...path.matchAll(/:(\w+)/g)].map((match) => match[1]);

/** Query strings carry dates as text; zod's coerced dates have no JSON Schema of their own. */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema._zod.def.type === "date") Object.assign(jsonSchema, { type: "string", format: "date-time" });
    },
  }) as JsonSchema;
}

const ERROR_RESPONSE = { description: "Error", content: { "application/json": { schema: viewRef(ApiErrorView) } } };

/** Public routes need nothing; routes open to API tokens name the scope they need next to the session. */
function security(route: RestRoute) {
  if (route.access === "public") return { security: [] };
  const scope = "tokenScope" in route ? route.tokenScope : undefined;
  return scope ? { security: [{ session: [] }, { apiToken: scope === "any" ? [] : [scope] }] } : {};
}

/** The path ids every route resolves by name too (composition/rest-access.ts), whatever the input's own schema of the id says. */
const NAMED_PATH_IDS: Record<string, JsonSchema> = {
  orgId: { type: "string", description: "The organization's id or slug" },
  projectId: { type: "string", description: "The project's id (a UUID), number or slug" },
};

/** The success answer's media types: a file route's each (JSON as its view, the others as text), else the one. */
function responseContent(route: RestRoute) {
  if (!("mediaTypes" in route)) return { [route.mediaType ?? "application/json"]: { schema: viewRef(route.output) } };
  return Object.fromEntries(route.mediaTypes.map((type) => [type, { schema: viewRef(type === "application/json" ? route.output : TextDocumentView) }]));
}

function operation(route: RestRoute) {
  const schema = route.input ? jsonSchemaOf(route.input) : { properties: {}, required: [] };
  const ids = pathParams(route.path);
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([name]) => !ids.includes(name)));
  const required = (schema.required ?? []).filter((name) => !ids.includes(name));
  const parameters: Record<string, unknown>[] = ids.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: NAMED_PATH_IDS[name] ?? schema.properties?.[name] ?? { type: "string" },
  }));
  let requestBody: Record<string, unknown> | undefined;
  if (route.method === "get") {
    for (const [name, property] of Object.entries(properties)) {
      const array = property.type === "array";
      parameters.push({
        name,
        in: "query",
        required: required.includes(name),
        schema: property,
        ...(array ? { style: "form", explode: true, description: "Repeat the parameter or separate values with commas" } : {}),
      });
    }
  } else if (Object.keys(properties).length > 0) {
    requestBody = { required: true, content: { "application/json": { schema: { type: "object", properties, required } } } };
  }
  return {
    summary: route.summary,
    tags: [route.tag],
    operationId: `${route.method}${toOpenApiPath(route.path).replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    ...security(route),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [String(route.status ?? 200)]: { description: route.response, content: responseContent(route) },
      ...(route.access === "public" ? {} : { "400": ERROR_RESPONSE, "401": ERROR_RESPONSE, "404": ERROR_RESPONSE }),
    },
  };
}

/** The OpenAPI 3.1 document of /api/v1 from its route definitions, with the same zod schemas the routes parse with. */
export function buildOpenApiDocument(routes: readonly RestRoute[], serverUrl = "/api/v1") {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (paths[toOpenApiPath(route.path)] ??= {})[route.method] = operation(route);
  return {
    openapi: "3.1.0",
    info: {
      title: "Faultline API",
      version: "1",
      description:
        "Product API, authenticated by a session cookie or, on the routes that list the apiToken scheme, by an organization API token " +
        "(`Authorization: Bearer flt_…`, created in organization settings). `{orgId}` takes the organization's id or slug, `{projectId}` the " +
        "project's id, number or slug (`GET /organizations` lists the caller's). Errors answer { error: { code, message, requestId } }.",
    },
    servers: [{ url: serverUrl }],
    security: [{ session: [] }],
    paths,
    components: {
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "better-auth.session_token" },
        apiToken: { type: "http", scheme: "bearer", description: "Organization API token; the operation's security entry names the scope it needs" },
      },
      schemas: viewComponents(),
    },
  };
}
