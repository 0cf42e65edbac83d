import type { ModelProvider } from "../../src/server/chat/model-provider";
import { startTestServer } from "./test-server";
import { issueByType, sendEvent, triageTenant } from "./triage-seed";

/**
 * What the provider-over-HTTP tests chat about: a test server whose agent uses `modelProvider`, one
 * tenant, and one CheckoutError issue ("card declined" in `pay`) for the tools to find.
 */
export async function chatServerWithCheckoutIssue(modelProvider: ModelProvider | undefined, tenantName: string) {
  const server = await startTestServer({ outside: { modelProvider } });
  const tenant = await triageTenant(server, tenantName);
  await sendEvent(server, tenant.project, { type: "CheckoutError", value: "card declined", fn: "pay" });
  const issueId = (await issueByType(tenant.session, tenant.project.id, "CheckoutError")).id as string;
  return { server, tenant, issueId };
}

/** A scripted model's reply, in the shape both provider stand-ins take. */
export type CheckoutReply = { text: string } | { toolCalls: { name: string; args: unknown }[] };

/**
 * What the scripted model answers at each step of "what broke?": search the issues, open the one
 * found, then answer; the call that is not streamed is the title's.
 */
export function checkoutAnswerStep(streamed: boolean, toolResultsSoFar: number, issueId: string): CheckoutReply {
  if (!streamed) return { text: "Checkout errors today" };
  if (toolResultsSoFar === 0) return { toolCalls: [{ name: "searchIssues", args: { text: "Checkout" } }] };
  if (toolResultsSoFar === 1) return { toolCalls: [{ name: "getIssue", args: { issueId } }] };
  return { text: "One checkout error, seen once." };
}
