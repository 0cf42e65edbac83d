/** The catalogue of /api/v1: every route with its input and answer views (openapi.ts builds the document from it). */
import { z } from "zod";
import { ApiTokenIdInput, CreateApiTokenInput } from "../../shared/api-token.inputs";
import { ApiTokenList, CreatedApiToken, RevokedApiToken } from "../../shared/api-token.views";
import { AlertRuleScope, CreateAlertRuleInput, ListNotificationsInput, UpdateAlertRuleInput } from "../../shared/alert.inputs";
import { AlertNotificationPage, AlertRuleList, AlertRuleView, AlertTestResult, DeletedAlertRule } from "../../shared/alert.views";
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
import { BlockIpInput, ConnectWafInput, IpSetIdInput, ListWafAuditInput, SetBlockListInput } from "../../shared/waf.inputs";
import {
  IntegrationList,
  WafAuditList,
  WafBlockResult,
  WafConnectionView,
  WafDisconnected,
  WafIpSetList,
  WafSampledRequestList,
  WafWebAclList,
} from "../../shared/waf.views";
import { MergeIssuesInput, UnmergeIssueInput } from "../../shared/grouping.inputs";
import { IssueFingerprintList, IssueList, SimilarIssueList } from "../../shared/grouping.views";
import { CheckoutInput, ListSubscriptionsInput } from "../../shared/billing.inputs";
import { BillingRedirect, BillingUsage, SubscriptionList, WebhookReceipt } from "../../shared/billing.views";
import { ChatRequestInput, ConversationIdInput, RenameConversationInput } from "../../shared/chat.inputs";
import { ConversationDetail, ConversationListItem, DeletedConversation } from "../../shared/chat.views";
import { ChatStreamChunk, ConversationList, DailyCounts, OpenApiDocumentView, ProjectList } from "./openapi-views";

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
  /** Mounted in app.ts ahead of the JSON parser rather than on the v1 router (the payment webhook needs its raw body). */
  mountedBeforeJson?: true;
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
    method: "post",
    path: `${PP}/issues/merge`,
    summary: "Merge issues into one",
    tag: "Issues",
    input: MergeIssuesInput,
    output: IssueDetail,
    response: "The merged issue, with the events, counts and fingerprints of all",
  },
  {
    method: "post",
    path: `${PP}/issues/:issueId/unmerge`,
    summary: "Split fingerprints out of an issue",
    tag: "Issues",
    input: UnmergeIssueInput,
    output: IssueList,
    response: "The issues split out, one per fingerprint",
  },
  {
    method: "get",
    path: `${PP}/issues/:issueId/fingerprints`,
    summary: "An issue's fingerprints (why grouped)",
    tag: "Issues",
    input: IssueScope,
    output: IssueFingerprintList,
    response: "Each fingerprint with its grouping components and recent event count",
  },
  {
    method: "get",
    path: `${PP}/issues/:issueId/similar`,
    summary: "Issues similar to this one",
    tag: "Issues",
    input: IssueScope,
    output: SimilarIssueList,
    response: "Other issues with the same crashing frame or exception type and a close message",
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
    path: "/organizations/:orgId/api-tokens",
    summary: "List the organization's API tokens (owners and admins)",
    tag: "API tokens",
    output: ApiTokenList,
    response: "The tokens, newest first, without their secrets",
  },
  {
    method: "post",
    path: "/organizations/:orgId/api-tokens",
    summary: "Create an API token (owners and admins); the secret is answered once",
    tag: "API tokens",
    input: CreateApiTokenInput,
    output: CreatedApiToken,
    response: "The token and its secret",
    status: 201,
  },
  {
    method: "delete",
    path: "/organizations/:orgId/api-tokens/:tokenId",
    summary: "Revoke an API token (owners and admins)",
    tag: "API tokens",
    input: ApiTokenIdInput,
    output: RevokedApiToken,
    response: "Confirmation",
  },
  {
    method: "get",
    path: "/billing/subscriptions/:orgId",
    summary: "The organization's subscriptions (Faultline Cloud only; 404 when self-hosted)",
    tag: "Billing",
    input: ListSubscriptionsInput,
    output: SubscriptionList,
    response: "Its subscriptions, newest first; empty on the free plan",
  },
  {
    method: "get",
    path: "/organizations/:orgId/billing/usage",
    summary: "This month's events per project against the plan's quota",
    tag: "Billing",
    output: BillingUsage,
    response: "Plan, quota, events accepted, rate-limited and over quota per project",
  },
  {
    method: "post",
    path: "/organizations/:orgId/billing/checkout",
    summary: "Start a Stripe Checkout for the plus plan (owners and admins)",
    tag: "Billing",
    input: CheckoutInput,
    output: BillingRedirect,
    response: "The Checkout page to send the browser to",
  },
  {
    method: "post",
    path: "/organizations/:orgId/billing/portal",
    summary: "Open the Stripe customer portal: invoices, payment method, cancel (owners and admins)",
    tag: "Billing",
    output: BillingRedirect,
    response: "The portal page to send the browser to",
  },
  {
    method: "post",
    path: "/billing/webhooks/stripe",
    summary: "Stripe's webhook: a signed event (Stripe-Signature over the raw body); unknown types are acknowledged",
    tag: "Billing",
    output: WebhookReceipt,
    response: "Whether the event was applied, a duplicate, or ignored",
    public: true,
    mountedBeforeJson: true,
  },
  ...wafRoutes(),
  {
    method: "get",
    path: `${PP}/alert-rules`,
    summary: "List alert rules",
    tag: "Alerts",
    input: ProjectIdInput,
    output: AlertRuleList,
    response: "The project's rules",
  },
  {
    method: "post",
    path: `${PP}/alert-rules`,
    summary:
      "Create an alert rule. A new webhook action answers its signing secret once (`actions[].secret`). Webhook deliveries are POSTs of " +
      "`{ type, rule: { id, name }, issue: { id, title, culprit, level, status, url, eventCount, userCount, firstSeen, lastSeen, environment, release }, " +
      'project: { id, name }, test }` signed with the header `Faultline-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the secret>`.',
    tag: "Alerts",
    input: CreateAlertRuleInput,
    output: AlertRuleView,
    response: "The new rule (webhook secrets shown this once)",
    status: 201,
  },
  {
    method: "get",
    path: `${PP}/alert-rules/:ruleId`,
    summary: "Get an alert rule",
    tag: "Alerts",
    input: AlertRuleScope,
    output: AlertRuleView,
    response: "The rule",
  },
  {
    method: "put",
    path: `${PP}/alert-rules/:ruleId`,
    summary: "Replace an alert rule (send an action's id, without url, to keep its URL and signing secret)",
    tag: "Alerts",
    input: UpdateAlertRuleInput,
    output: AlertRuleView,
    response: "The updated rule",
  },
  {
    method: "delete",
    path: `${PP}/alert-rules/:ruleId`,
    summary: "Delete an alert rule",
    tag: "Alerts",
    input: AlertRuleScope,
    output: DeletedAlertRule,
    response: "The deleted rule's id",
  },
  {
    method: "post",
    path: `${PP}/alert-rules/:ruleId/test`,
    summary: "Send a test notification through every action of the rule now",
    tag: "Alerts",
    input: AlertRuleScope,
    output: AlertTestResult,
    response: "One logged notification per action, with its outcome",
  },
  {
    method: "get",
    path: `${PP}/notifications`,
    summary: "The notification log, newest first",
    tag: "Alerts",
    input: ListNotificationsInput,
    output: AlertNotificationPage,
    response: "A page of notification attempts",
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

/** Issue 16: the integrations list and the AWS WAF integration (every AWS call is made by the server). */
function wafRoutes(): ApiRoute[] {
  const I = "/organizations/:orgId/integrations";
  const W = `${I}/aws/waf`;
  const tag = "Integrations";
  return [
    {
      method: "get",
      path: I,
      summary: "List integrations with their status",
      tag,
      output: IntegrationList,
      response: "Every integration with status, last error and connection time",
    },
    {
      method: "get",
      path: W,
      summary: "Get the AWS WAF connection (404 when not connected)",
      tag,
      output: WafConnectionView,
      response: "The connection, the key id masked",
    },
    {
      method: "put",
      path: W,
      summary: "Connect or reconnect AWS WAF: ListWebACLs runs with the credentials first; only then are they stored",
      tag,
      input: ConnectWafInput,
      output: WafConnectionView,
      response: "The connection, the key id masked",
    },
    { method: "delete", path: W, summary: "Disconnect AWS WAF (the stored credentials are deleted)", tag, output: WafDisconnected, response: "Disconnected" },
    {
      method: "get",
      path: `${W}/web-acls`,
      summary: "List web ACLs with their rules",
      tag,
      output: WafWebAclList,
      response: "Web ACLs of the connected region and scope",
    },
    {
      method: "get",
      path: `${W}/ip-sets`,
      summary: "List IP sets with their addresses",
      tag,
      output: WafIpSetList,
      response: "IP sets, their addresses and the rules referencing them",
    },
    {
      method: "get",
      path: `${W}/ip-sets/:ipSetId/sampled-requests`,
      summary: "Requests AWS sampled in the last 3 hours for the rules referencing the IP set",
      tag,
      input: IpSetIdInput,
      output: WafSampledRequestList,
      response: "Sampled requests, each client IP with the exceptions seen from it",
    },
    {
      method: "put",
      path: `${W}/block-list`,
      summary: "Choose the block-list IP set",
      tag,
      input: SetBlockListInput,
      output: WafConnectionView,
      response: "The connection with its block list",
    },
    {
      method: "post",
      path: `${W}/blocks`,
      summary: "Block an address (added as /32 or /128; already blocked is a no-op)",
      tag,
      input: BlockIpInput,
      output: WafBlockResult,
      response: "The IP set and whether it changed",
      status: 201,
    },
    {
      method: "delete",
      path: `${W}/blocks/:ip`,
      summary: "Unblock an address (a CIDR's slash percent-encoded; absent is a no-op)",
      tag,
      input: BlockIpInput.pick({ ip: true, ipSetId: true }),
      output: WafBlockResult,
      response: "The IP set and whether it changed",
    },
    {
      method: "get",
      path: `${W}/audit`,
      summary: "Block and unblock history, newest first",
      tag,
      input: ListWafAuditInput,
      output: WafAuditList,
      response: "Audit entries",
    },
  ];
}
