/**
 * Triage test data sent through the real ingest endpoints (Sentry envelope, native events), so
 * the counters, rollups and tags the triage API reads are exactly what ingest writes.
 */
import { expect } from "vitest";
import type { HttpSession } from "./http-session";
import type { TestServer } from "./test-server";
import { createOrganization, signUpVerified } from "./test-users";

export interface TriageProject {
  id: string;
  number: number;
  apiKey: string;
}

export interface TestEvent {
  type: string;
  value: string;
  /** The crashing in-app function: events with the same type and function group into one issue. */
  fn: string;
  environment?: string;
  level?: string;
  release?: string;
  message?: string;
  tags?: Record<string, string>;
  user?: { id?: string; email?: string; ip_address?: string };
  timestamp?: Date;
}

export const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
export const daysAgo = (days: number) => hoursAgo(days * 24);
export const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** A signed-up user with an active organization and one project created through tRPC. */
export async function triageTenant(server: TestServer, name: string) {
  const { session, userId, email } = await signUpVerified(server, { name: `${name} User` });
  const org = await createOrganization(session, name);
  const project = await createTriageProject(session, `${name} project`);
  return { session, userId, email, org, project };
}

export async function createTriageProject(session: HttpSession, name: string): Promise<TriageProject> {
  const created = await session.mutation("project.create", { name, platform: "NODE_JS" });
  expect(created.error).toBeUndefined();
  return { id: created.data.id, number: created.data.number, apiKey: created.data.apiKey };
}

/** Sends one error event through `/api/{n}/envelope/`; answers its event id once it is durable. */
export async function sendEvent(server: TestServer, project: TriageProject, event: TestEvent): Promise<string> {
  const eventId = crypto.randomUUID().replaceAll("-", "");
  const payload = {
    event_id: eventId,
    level: event.level ?? "error",
    platform: "node",
    environment: event.environment ?? "production",
    release: event.release,
    message: event.message,
    timestamp: (event.timestamp ?? new Date()).toISOString(),
    tags: event.tags,
    user: event.user,
    request: { url: "https://shop.example/checkout", method: "POST", headers: { "user-agent": "vitest" } },
    breadcrumbs: { values: [{ category: "http", message: "GET /cart", level: "info" }] },
    contexts: { runtime: { name: "node", version: "22.0.0" } },
    exception: {
      values: [
        {
          type: event.type,
          value: event.value,
          stacktrace: {
            frames: [
              { function: "main", filename: "/app/index.js", lineno: 3, in_app: true },
              {
                function: event.fn,
                filename: "/app/handlers.js",
                lineno: 42,
                in_app: true,
                context_line: "  throw new Error(x);",
                pre_context: ["function f() {"],
                post_context: ["}"],
              },
            ],
          },
        },
      ],
    },
  };
  const body = `${JSON.stringify({ event_id: eventId })}\n{"type":"event"}\n${JSON.stringify(payload)}\n`;
  const response = await fetch(`${server.url}/api/${project.number}/envelope/?sentry_key=${project.apiKey}`, { method: "POST", body });
  expect(response.status, await response.clone().text()).toBe(200);
  return eventId;
}

export async function sendEvents(server: TestServer, project: TriageProject, events: TestEvent[]) {
  const ids: string[] = [];
  for (const event of events) ids.push(await sendEvent(server, project, event));
  return ids;
}

/** Sends a native analytics event (`POST /api/v1/events` with x-api-key). */
export async function sendAnalyticsEvent(server: TestServer, project: TriageProject, name: string, properties: Record<string, unknown> = {}) {
  const response = await fetch(`${server.url}/api/v1/events`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": project.apiKey },
    body: JSON.stringify({ name, properties }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

/** The issue whose title starts with `type`, from issue.list. */
export async function issueByType(session: HttpSession, projectId: string, type: string) {
  const list = await session.query("issue.list", { projectId, size: 100 });
  expect(list.error).toBeUndefined();
  const issue = list.data.items.find((item: { title: string }) => item.title.startsWith(`${type}:`));
  expect(issue, `issue ${type}`).toBeDefined();
  return issue as { id: string; title: string; eventCount: number; status: string; isRegression: boolean };
}
