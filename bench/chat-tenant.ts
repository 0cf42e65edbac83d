/**
 * A signed-up user with an organization, a project and some ingested events, made over HTTP the
 * way a browser and an SDK would — for benchmarks, which cannot use the vitest-bound test helpers
 * (test-users.ts, triage-seed.ts assert with `expect`). Every failed step throws.
 */
import { randomUUID } from "node:crypto";
import { HttpSession, type HttpResponse } from "../test/helpers/http-session";
import { createEnvelopeMix } from "./envelope-mix";

function expectStatus(step: string, response: HttpResponse, status: number) {
  if (response.status !== status) throw new Error(`${step} answered ${response.status}, expected ${status}: ${response.text.slice(0, 500)}`);
}

export interface ChatTenant {
  session: HttpSession;
  organizationId: string;
  projectId: string;
  /** The project's busiest issue after the events were sent. */
  issueId: string;
}

/** The app a tenant signs up on: in this process (its mailer) or its own (the development outbox over HTTP). */
export interface ChatApp {
  url: string;
  outbox(): Promise<{ to: string; kind: string; actionUrl: string }[]>;
}

export async function signUpChatTenant(server: ChatApp, { events }: { events: number }): Promise<ChatTenant> {
  const email = `bench-${randomUUID()}@example.com`;
  const session = new HttpSession(server.url);
  expectStatus("sign-up", await session.request("/api/auth/sign-up/email", { body: { name: "Bench User", email, password: "correct-horse-battery" } }), 200);
  const mail = (await server.outbox()).find((entry) => entry.to === email && entry.kind === "verification");
  if (!mail) throw new Error(`no verification mail to ${email}`);
  const link = new URL(mail.actionUrl);
  expectStatus("email verification", await session.request(link.pathname + link.search), 302);
  const created = await session.request("/api/auth/organization/create", { body: { name: "Bench", slug: `bench-${randomUUID()}` } });
  expectStatus("organization create", created, 200);
  expectStatus("organization set-active", await session.request("/api/auth/organization/set-active", { body: { organizationId: created.body.id } }), 200);
  const project = await session.mutation("project.create", { name: "Bench shop", platform: "NODE_JS" });
  if (!project.data) throw new Error(`project.create failed: ${project.error?.message}`);

  // Real SDK events (bench:ingest's mix): a few hot issues and a tail, as ingest stores them.
  const next = createEnvelopeMix(20);
  for (let i = 0; i < events; i++) {
    const envelope = next();
    const response = await fetch(`${server.url}/api/${project.data.number}/envelope/?sentry_key=${project.data.apiKey}`, {
      method: "POST",
      body: envelope.body,
    });
    if (response.status !== 200) throw new Error(`ingest answered ${response.status}: ${await response.text()}`);
  }
  const issues = await session.query("issue.list", { projectId: project.data.id, sort: "eventCount:DESC", size: 1 });
  const issueId = issues.data?.items[0]?.id;
  if (!issueId) throw new Error(`no issue after ${events} events: ${JSON.stringify(issues.error ?? issues.data)}`);
  return { session, organizationId: created.body.id, projectId: project.data.id, issueId };
}
