import { z } from "zod";
import { ApiTokenList, ApiTokenView, CreatedApiToken, RevokedApiToken } from "../../shared/api-token.views";
import { BillingRedirect, BillingUsage, ProjectUsage, SubscriptionList, SubscriptionView, WebhookReceipt } from "../../shared/billing.views";
import { IssueFingerprint, IssueFingerprintList, IssueList, SimilarIssue, SimilarIssueList } from "../../shared/grouping.views";
import {
  AlertActionView,
  AlertNotificationPage,
  AlertNotificationView,
  AlertRuleList,
  AlertRuleView,
  AlertTestResult,
  DeletedAlertRule,
} from "../../shared/alert.views";
import { DeletionList, DeletionRequestedView, DeletionView } from "../../shared/deletion.views";
import { OrganizationView } from "../../shared/organization.views";
import { OrganizationDataSettings, ProjectDataSettings } from "../../shared/data-settings.views";
import { PageMeta } from "../../shared/paged.views";
import { ProjectKeyView, ProjectView } from "../../shared/project.views";
import {
  DeployView,
  ReleaseCommitView,
  ReleaseDetail,
  ReleaseHealth,
  ReleaseHealthDay,
  ReleaseIssueView,
  ReleaseListItem,
  ReleasePage,
  SuspectCommit,
  SuspectCommits,
} from "../../shared/release.views";
import { DeletedSourceMapBundles, SourceMapBundleList, SourceMapBundleView } from "../../shared/source-map.views";
import {
  BulkStatusResult,
  DailyCount,
  EventListItem,
  EventPage,
  ExceptionDetail,
  ExceptionListItem,
  ExceptionPage,
  IssueActivityEntry,
  IssueDetail,
  IssueListItem,
  IssuePage,
  IssueTagBreakdown,
} from "../../shared/triage.views";

import {
  IntegrationList,
  IntegrationView,
  WafAuditEntry,
  WafAuditList,
  WafBlockResult,
  WafConnectionView,
  WafDisconnected,
  WafIpSetList,
  WafIpSetView,
  WafSampledRequestList,
  WafSampledRequestView,
  WafWebAclList,
  WafWebAclView,
} from "../../shared/waf.views";
import { ConversationDetail, ConversationListItem, ConversationMessage, DeletedConversation } from "../../shared/chat.views";
import {
  ExportedException,
  ExportedFrame,
  ExportedIssue,
  ExportedOccurrence,
  IssueExport,
  OrganizationStorage,
  ProjectStorage,
} from "../../shared/export.views";

type JsonSchema = Record<string, unknown>;

export const OrganizationList = z.array(OrganizationView);
export const ProjectList = z.array(ProjectView);
export const DailyCounts = z.array(DailyCount);
export const ConversationList = z.array(ConversationListItem);
/** One `data:` line of the AI SDK UI message stream (text-delta, tool-input-available, tool-output-available, finish, error, …). */
export const ChatStreamChunk = z.looseObject({ type: z.string() });
/** A file answer that is not JSON (an export's CSV or Markdown). */
export const TextDocumentView = z.string();
export const ApiErrorView = z.object({ error: z.object({ code: z.string(), message: z.string(), requestId: z.string() }) });
/** Only the outline: the document describes itself through the OpenAPI 3.1 meta-schema. */
export const OpenApiDocumentView = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

/**
 * Every view the document names, under its component name. A response schema is always a
 * reference to one of these, and views used inside others (list items, page meta) are referenced
 * rather than repeated.
 */
const NAMED_VIEWS = {
  Error: ApiErrorView,
  OpenApiDocument: OpenApiDocumentView,
  PageMeta,
  Organization: OrganizationView,
  OrganizationList,
  ProjectKey: ProjectKeyView,
  Project: ProjectView,
  ProjectList,
  DeletionRequested: DeletionRequestedView,
  Deletion: DeletionView,
  DeletionList,
  SourceMapBundle: SourceMapBundleView,
  SourceMapBundleList,
  DeletedSourceMapBundles,
  ReleaseHealth,
  ReleaseHealthDay,
  ReleaseListItem,
  ReleasePage,
  ReleaseCommit: ReleaseCommitView,
  Deploy: DeployView,
  ReleaseIssue: ReleaseIssueView,
  ReleaseDetail,
  OrganizationDataSettings,
  ProjectDataSettings,
  SuspectCommit,
  SuspectCommits,
  IssueListItem,
  IssuePage,
  IssueTagBreakdown,
  IssueActivityEntry,
  IssueDetail,
  BulkStatusResult,
  IssueList,
  IssueFingerprint,
  IssueFingerprintList,
  SimilarIssue,
  SimilarIssueList,
  ExceptionListItem,
  ExceptionPage,
  ExceptionDetail,
  DailyCount,
  DailyCounts,
  EventListItem,
  EventPage,
  ApiToken: ApiTokenView,
  ApiTokenList,
  CreatedApiToken,
  RevokedApiToken,
  Subscription: SubscriptionView,
  SubscriptionList,
  BillingRedirect,
  ProjectUsage,
  BillingUsage,
  WebhookReceipt,
  Integration: IntegrationView,
  IntegrationList,
  WafConnection: WafConnectionView,
  WafDisconnected,
  WafWebAcl: WafWebAclView,
  WafWebAclList,
  WafIpSet: WafIpSetView,
  WafIpSetList,
  WafSampledRequest: WafSampledRequestView,
  WafSampledRequestList,
  WafBlockResult,
  WafAuditEntry,
  WafAuditList,
  AlertAction: AlertActionView,
  AlertRule: AlertRuleView,
  AlertRuleList,
  AlertNotification: AlertNotificationView,
  AlertNotificationPage,
  AlertTestResult,
  DeletedAlertRule,
  ConversationListItem,
  ConversationList,
  ConversationMessage,
  ConversationDetail,
  DeletedConversation,
  ChatStreamChunk,
  // Exports and storage (issue 35).
  TextDocument: TextDocumentView,
  ExportedFrame,
  ExportedException,
  ExportedOccurrence,
  ExportedIssue,
  IssueExport,
  ProjectStorage,
  OrganizationStorage,
} satisfies Record<string, z.ZodType>;

const COMPONENTS = "#/components/schemas/";
const registry = z.registry<{ id: string }>();
for (const [id, schema] of Object.entries(NAMED_VIEWS)) registry.add(schema, { id });

/** A reference to the component of a named view; a route whose answer has no name fails the document build. */
export function viewRef(view: z.ZodType): JsonSchema {
  const id = registry.get(view)?.id;
  if (!id) throw new Error("A response view must be named in NAMED_VIEWS (rest/openapi-views.ts)");
  return { $ref: `${COMPONENTS}${id}` };
}

/**
 * The components/schemas of the document: the views as they go over the wire (`io: "output"`),
 * where a Date is JSON's ISO 8601 string. Objects are closed (`additionalProperties: false`), so
 * the contract test fails when a service answers a field its view does not name.
 */
export function viewComponents(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    io: "output",
    // Dates are the only unrepresentable type in the views; the override below gives them their wire form.
    unrepresentable: "any",
    uri: (id) => `${COMPONENTS}${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema._zod.def.type === "date") Object.assign(jsonSchema, { type: "string", format: "date-time" });
    },
  });
  // Each entry is embedded in the document, not a standalone JSON Schema resource.
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema]));
}
