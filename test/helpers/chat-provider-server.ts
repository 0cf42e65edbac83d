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
