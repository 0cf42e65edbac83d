/** Which AWS account, region and scope an organization's WAF connection talks to (decrypted from `secrets/` per call). */
export interface WafConnection {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** CLOUDFRONT web ACLs live in us-east-1 whatever `region` says; REGIONAL ones in `region`. */
  scope: "REGIONAL" | "CLOUDFRONT";
}

/** An AWS WAFv2 IP set as the integration reads it. */
export interface WafIpSet {
  id: string;
  name: string;
  /** CIDR strings (`203.0.113.7/32`, `2001:db8::1/128`). */
  addresses: string[];
  /** WAFv2's optimistic lock: an update must present the token of the version it was based on. */
  lockToken: string;
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
 * - Rejected credentials throw AppError BAD_REQUEST with a message the user can act on; any other
 *   AWS failure throws BAD_GATEWAY, throttling or an unreachable endpoint SERVICE_UNAVAILABLE.
 */
export interface WafClient {
  /** Proves the credentials work by listing the IP sets of the scope. */
  listIpSets(connection: WafConnection): Promise<Array<Pick<WafIpSet, "id" | "name">>>;
  getIpSet(connection: WafConnection, ipSet: { id: string; name: string }): Promise<WafIpSet>;
  updateIpSet(connection: WafConnection, ipSet: { id: string; name: string; lockToken: string }, addresses: string[]): Promise<{ lockToken: string }>;
}
