/** The scopes WAFv2 has: REGIONAL resources live in a region, CLOUDFRONT ones are global (managed in us-east-1). */
export type WafScope = "REGIONAL" | "CLOUDFRONT";

/** How Faultline signs in to an organization's AWS account: its own keys, or a role it assumes with STS. */
export type WafCredentials = { kind: "keys"; accessKeyId: string; secretAccessKey: string } | { kind: "role"; roleArn: string; externalId: string };

/** Which AWS account, region and scope an organization's WAF connection talks to (decrypted from `secrets/` per call). */
export interface WafConnection {
  region: string;
  /** CLOUDFRONT web ACLs live in us-east-1 whatever `region` says; REGIONAL ones in `region`. */
  scope: WafScope;
  credentials: WafCredentials;
}

export interface WafResourceRef {
  id: string;
  name: string;
}

export interface WafResourceSummary extends WafResourceRef {
  arn: string;
}

/** An AWS WAFv2 IP set as the integration reads it. */
export interface WafIpSet extends WafResourceSummary {
  version: "IPV4" | "IPV6";
  /** CIDR strings (`203.0.113.7/32`, `2001:db8::1/128`). */
  addresses: string[];
  /** WAFv2's optimistic lock: an update must present the token of the version it was based on. */
  lockToken: string;
}

export interface WafRule {
  name: string;
  priority: number;
  /** Block, Allow, Count, Captcha, Challenge — or null for a rule group reference (its own actions apply). */
  action: string | null;
  /** The IP set an IPSetReferenceStatement of this rule names (null for rules of other kinds). */
  ipSetArn: string | null;
  /** What GetSampledRequests calls the rule. */
  metricName: string;
}

export interface WafWebAcl extends WafResourceSummary {
  rules: WafRule[];
}

export interface WafSampledRequest {
  clientIp: string;
  country: string | null;
  method: string | null;
  uri: string | null;
  action: string | null;
  at: Date;
}

/**
 * The part of AWS WAFv2 the integration uses (`@aws-sdk/client-wafv2`, with the standard
 * `AWS_ENDPOINT_URL*` variables honoured so tests reach a loopback stand-in).
 *
 * Contract:
 * - Every call takes the connection explicitly: one client serves every organization, and no
 *   credentials are cached across organizations.
 * - `updateIpSet` replaces the whole address list and returns the next lock token. A stale
 *   `lockToken` (someone else changed the set) throws AppError CONFLICT so the caller re-reads and
 *   retries; it never overwrites blindly.
 * - Failures are AppErrors with a message the user can act on (waf-errors.ts): rejected keys and
 *   denied actions BAD_REQUEST, deleted resources NOT_FOUND, throttling (after the SDK's own
 *   retries) and unreachable endpoints SERVICE_UNAVAILABLE, anything else BAD_GATEWAY.
 */
export interface WafClient {
  listWebAcls(connection: WafConnection): Promise<WafResourceSummary[]>;
  getWebAcl(connection: WafConnection, webAcl: WafResourceRef): Promise<WafWebAcl>;
  listIpSets(connection: WafConnection): Promise<WafResourceSummary[]>;
  getIpSet(connection: WafConnection, ipSet: WafResourceRef): Promise<WafIpSet>;
  updateIpSet(connection: WafConnection, ipSet: WafResourceRef & { lockToken: string }, addresses: string[]): Promise<{ lockToken: string }>;
  sampledRequests(
    connection: WafConnection,
    query: { webAclArn: string; ruleMetricName: string; from: Date; to: Date; maxItems: number },
  ): Promise<WafSampledRequest[]>;
}
