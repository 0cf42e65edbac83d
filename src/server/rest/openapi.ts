import { z } from "zod";
import { CreateProjectInput, ProjectIdInput } from "../../shared/project.inputs";
import { ProjectView } from "../../shared/project.views";
import {
  BulkSetIssueStatusInput,
  DailyStatsInput,
  ExceptionScope,
  IssueScope,
  ListEventsInput,
  ListExceptionsInput,
  ListIssuesInput,
  SetIssueSeverityInput,
  SetIssueStatusInput,
} from "../../shared/triage.inputs";
import { BulkStatusResult, EventPage, ExceptionDetail, ExceptionPage, IssueDetail, IssuePage } from "../../shared/triage.views";
import { ChatRequestInput, ConversationIdInput, RenameConversationInput } from "../../shared/chat.inputs";
import { ConversationDetail, ConversationListItem, DeletedConversation } from "../../shared/chat.views";
import { ApiErrorView, ChatStreamChunk, ConversationList, DailyCounts, OpenApiDocumentView, ProjectList, viewComponents, viewRef } from "./openapi-views";

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

export interface ApiRoute {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Express syntax, relative to /api/v1. */
  path: string;
  summary: string;
  tag: string;
  /** Query parameters (GET) or JSON body (writes); the path's ids are taken out of it. */
  input?: z.ZodType;
  /** The success answer: a view named in rest/openapi-views.ts. */
  output: z.ZodType;
  /** What the answer holds, in a few words. */
  response: string;
  status?: number;
  public?: boolean;
  /** The success answer's media type when it is not JSON (the chat's SSE stream). */
  mediaType?: string;
}

const P = "/organizations/:orgId/projects";
const PP = `${P}/:projectId`;

/** Every route of the /api/v1 router; a test fails when a registered route is missing here. */
export const API_ROUTES: ApiRoute[] = [
  {
    method: "get",
    path: "/openapi.json",
    summary: "This document",
    tag: "Meta",
    output: OpenApiDocumentView,
    response: "The OpenAPI 3.1 document",
    public: true,
  },
  { method: "get", path: P, summary: "List projects", tag: "Projects", output: ProjectList, response: "Array of projects with DSN and keys" },
  {
    method: "post",
    path: P,
    summary: "Create a project",
    tag: "Projects",
    input: CreateProjectInput,
    output: ProjectView,
    response: "The new project",
    status: 201,
  },
  { method: "get", path: PP, summary: "Get a project", tag: "Projects", input: ProjectIdInput, output: ProjectView, response: "One project with DSN and keys" },
  { method: "get", path: `${PP}/issues`, summary: "List issues", tag: "Issues", input: ListIssuesInput, output: IssuePage, response: "A page of issues" },
  {
    method: "post",
    path: `${PP}/issues/bulk-status`,
    summary: "Set the status of several issues",
    tag: "Issues",
    input: BulkSetIssueStatusInput,
    output: BulkStatusResult,
    response: "How many issues changed status",
  },
  {
    method: "get",
    path: `${PP}/issues/:issueId`,
    summary: "Get an issue",
    tag: "Issues",
    input: IssueScope,
    output: IssueDetail,
    response: "The issue with its tags breakdown and activity",
  },
  {
    method: "put",
    path: `${PP}/issues/:issueId/status`,
    summary: "Set an issue's status",
    tag: "Issues",
    input: SetIssueStatusInput,
    output: IssueDetail,
    response: "The updated issue",
  },
  {
    method: "put",
    path: `${PP}/issues/:issueId/severity`,
    summary: "Set an issue's severity",
    tag: "Issues",
    input: SetIssueSeverityInput,
    output: IssueDetail,
    response: "The updated issue",
  },
  {
    method: "get",
    path: `${PP}/exceptions`,
    summary: "List exceptions (occurrences), newest first",
    tag: "Exceptions",
    input: ListExceptionsInput,
    output: ExceptionPage,
    response: "A page of exceptions",
  },
  {
    method: "get",
    path: `${PP}/exceptions/statistics/daily`,
    summary: "Occurrences per UTC day, zero-filled, from..to inclusive (at most 366 days)",
    tag: "Exceptions",
    input: DailyStatsInput,
    output: DailyCounts,
    response: "One count per UTC day",
  },
  {
    method: "get",
    path: `${PP}/exceptions/:exceptionId`,
    summary: "Get an exception with the whole stored occurrence",
    tag: "Exceptions",
    input: ExceptionScope,
    output: ExceptionDetail,
    response: "The exception with its stored occurrence",
  },
  {
    method: "get",
    path: `${PP}/events`,
    summary: "List analytics events",
    tag: "Events",
    input: ListEventsInput,
    output: EventPage,
    response: "A page of analytics events",
  },
  {
    method: "get",
    path: "/ai/agents/conversations",
    summary: "The caller's conversations with the AI agent in the active organization, newest first",
    tag: "AI agent",
    output: ConversationList,
    response: "Array of conversations",
  },
  {
    method: "get",
    path: "/ai/agents/conversations/:id",
    summary: "One of the caller's conversations with its messages (AI SDK UIMessages)",
    tag: "AI agent",
    input: ConversationIdInput,
    output: ConversationDetail,
    response: "The conversation with its projectId, window, title and messages",
  },
  {
    method: "patch",
    path: "/ai/agents/conversations/:id",
    summary: "Rename a conversation",
    tag: "AI agent",
    input: RenameConversationInput,
    output: ConversationListItem,
    response: "The renamed conversation",
  },
  {
    method: "delete",
    path: "/ai/agents/conversations/:id",
    summary: "Delete a conversation and its messages",
    tag: "AI agent",
    input: ConversationIdInput,
    output: DeletedConversation,
    response: "The deleted conversation's id",
  },
  {
    method: "post",
    path: "/ai/agents/:projectId/chat",
    summary:
      "Ask the AI agent: send the new message only (the server keeps the history). A new conversation id creates the conversation. Needs the plus plan on the hosted deployment (403, details.reason plan_required); 503 while no model provider is configured; 429 over the daily token budget; 409 while another answer streams.",
    tag: "AI agent",
    input: ChatRequestInput,
    output: ChatStreamChunk,
    mediaType: "text/event-stream",
    response: "The answer as the AI SDK UI message stream (SSE, header x-vercel-ai-ui-message-stream: v1), one JSON chunk per data line",
  },
];

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

function operation(route: ApiRoute) {
  const schema = route.input ? jsonSchemaOf(route.input) : { properties: {}, required: [] };
  const ids = pathParams(route.path);
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([name]) => !ids.includes(name)));
  const required = (schema.required ?? []).filter((name) => !ids.includes(name));
  const parameters: Record<string, unknown>[] = ids.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: schema.properties?.[name] ?? { type: "string" },
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
    ...(route.public ? { security: [] } : {}),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [String(route.status ?? 200)]: { description: route.response, content: { [route.mediaType ?? "application/json"]: { schema: viewRef(route.output) } } },
      ...(route.public ? {} : { "400": ERROR_RESPONSE, "401": ERROR_RESPONSE, "404": ERROR_RESPONSE }),
    },
  };
}

/** The OpenAPI 3.1 document of /api/v1, from the same zod schemas the routes parse with. */
export function buildOpenApiDocument(serverUrl = "/api/v1") {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of API_ROUTES) (paths[toOpenApiPath(route.path)] ??= {})[route.method] = operation(route);
  return {
    openapi: "3.1.0",
    info: {
      title: "Faultline API",
      version: "1",
      description: "Session-cookie authenticated product API. Errors answer { error: { code, message, requestId } }.",
    },
    servers: [{ url: serverUrl }],
    security: [{ session: [] }],
    paths,
    components: {
      securitySchemes: { session: { type: "apiKey", in: "cookie", name: "better-auth.session_token" } },
      schemas: viewComponents(),
    },
  };
}
