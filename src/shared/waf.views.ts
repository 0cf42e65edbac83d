import { z } from "zod";
import { WAF_SCOPES } from "./waf.inputs";

export const INTEGRATION_STATUSES = ["not_connected", "connected", "failing"] as const;

export const IntegrationView = z.object({
  id: z.literal("aws-waf"),
  name: z.string(),
  status: z.enum(INTEGRATION_STATUSES),
  lastError: z.string().nullable(),
  connectedAt: z.date().nullable(),
});
export type IntegrationView = z.infer<typeof IntegrationView>;
export const IntegrationList = z.array(IntegrationView);

export const WafBlockListView = z.object({ ipSetId: z.string(), name: z.string(), scope: z.enum(WAF_SCOPES), version: z.enum(["IPV4", "IPV6"]) });

/** The connection as every member may see it: the key id masked to its last 4 characters, the secret never. */
export const WafConnectionView = z.object({
  status: z.enum(["connected", "failing"]),
  region: z.string(),
  scope: z.enum(WAF_SCOPES),
  /** `…ABCD`, or null when connected through a role. */
  accessKeyId: z.string().nullable(),
  roleArn: z.string().nullable(),
  externalId: z.string(),
  blockList: WafBlockListView.nullable(),
  lastError: z.string().nullable(),
  connectedAt: z.date(),
});
export type WafConnectionView = z.infer<typeof WafConnectionView>;

/** What the connect drawer needs before anything is connected. */
export const WafSetupView = z.object({
  externalId: z.string(),
  iamActions: z.array(z.string()),
  /** Whether this server has an identity to assume roles with. */
  rolesAvailable: z.boolean(),
  canManage: z.boolean(),
  connection: WafConnectionView.nullable(),
});
export type WafSetupView = z.infer<typeof WafSetupView>;

export const WafTestResult = z.object({
  webAcls: z.array(z.object({ id: z.string(), name: z.string() })),
  ipSetCount: z.number().int(),
});
export type WafTestResult = z.infer<typeof WafTestResult>;

export const WafRuleView = z.object({
  name: z.string(),
  priority: z.number().int(),
  action: z.string().nullable(),
  ipSetId: z.string().nullable(),
  ipSetArn: z.string().nullable(),
});
export const WafWebAclView = z.object({ id: z.string(), name: z.string(), arn: z.string(), rules: z.array(WafRuleView) });
export type WafWebAclView = z.infer<typeof WafWebAclView>;
export const WafWebAclList = z.array(WafWebAclView);

export const WafIpSetView = z.object({
  id: z.string(),
  name: z.string(),
  arn: z.string(),
  version: z.enum(["IPV4", "IPV6"]),
  addresses: z.array(z.string()),
  isBlockList: z.boolean(),
  referencedBy: z.array(z.object({ webAclId: z.string(), webAclName: z.string(), ruleName: z.string(), action: z.string().nullable() })),
});
export type WafIpSetView = z.infer<typeof WafIpSetView>;
export const WafIpSetList = z.array(WafIpSetView);

export const WafSampledRequestView = z.object({
  webAclName: z.string(),
  ruleName: z.string(),
  clientIp: z.string(),
  country: z.string().nullable(),
  method: z.string().nullable(),
  uri: z.string().nullable(),
  action: z.string().nullable(),
  at: z.date(),
  /** Exceptions of this organization seen from the client IP (newest first, a few). */
  exceptions: z.array(z.object({ projectId: z.uuid(), issueId: z.uuid(), exceptionId: z.uuid(), name: z.string().nullable() })),
});
export const WafSampledRequestList = z.object({ from: z.date(), to: z.date(), requests: z.array(WafSampledRequestView) });
export type WafSampledRequestList = z.infer<typeof WafSampledRequestList>;

export const WafBlockResult = z.object({
  cidr: z.string(),
  ipSet: z.object({ id: z.string(), name: z.string() }),
  /** Whether the address is in the IP set now. */
  blocked: z.boolean(),
  /** changed, or unchanged when it already was (or was not) there. */
  outcome: z.enum(["changed", "unchanged"]),
});
export type WafBlockResult = z.infer<typeof WafBlockResult>;

export const WafBlockStatus = z.object({
  cidr: z.string(),
  /** null when no block list is chosen (or not connected). */
  blockList: z.object({ id: z.string(), name: z.string() }).nullable(),
  blocked: z.boolean(),
});
export type WafBlockStatus = z.infer<typeof WafBlockStatus>;

export const WafAuditEntry = z.object({
  id: z.uuid(),
  action: z.enum(["block", "unblock"]),
  ip: z.string(),
  cidr: z.string(),
  ipSetId: z.string(),
  ipSetName: z.string(),
  outcome: z.enum(["changed", "unchanged"]),
  projectId: z.uuid().nullable(),
  issueId: z.uuid().nullable(),
  exceptionId: z.uuid().nullable(),
  createdAt: z.date(),
  actor: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
});
export type WafAuditEntry = z.infer<typeof WafAuditEntry>;
export const WafAuditList = z.array(WafAuditEntry);
export const WafDisconnected = z.object({ disconnected: z.boolean() });
