import { randomBytes, randomUUID } from "node:crypto";

/** What a WAFv2 resource lives under: one account's region and scope (CLOUDFRONT is us-east-1 only). */
export interface ResourceHome {
  accountId: string;
  region: string;
  scope: "REGIONAL" | "CLOUDFRONT";
}

export interface StandInIpSet extends ResourceHome {
  id: string;
  name: string;
  arn: string;
  version: "IPV4" | "IPV6";
  addresses: string[];
  lockToken: string;
  description?: string;
}

export interface StandInRule {
  name: string;
  priority: number;
  /** The IP set an IPSetReferenceStatement names, or none (a rule of another kind). */
  ipSetArn?: string;
  action: "Block" | "Allow" | "Count";
}

export interface StandInWebAcl extends ResourceHome {
  id: string;
  name: string;
  arn: string;
  lockToken: string;
  rules: StandInRule[];
}

export interface StandInSample {
  webAclArn: string;
  ruleMetricName: string;
  clientIp: string;
  uri: string;
  method: string;
  country: string;
  action: string;
  /** When the stand-in saw it (sampled requests older than three hours are not answered, as in AWS). */
  at: Date;
}

export interface StandInAccount {
  accountId: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** IAM actions this identity is refused, e.g. `wafv2:UpdateIPSet`. */
  denied: Set<string>;
}

export interface StandInRole {
  arn: string;
  accountId: string;
  externalId: string;
  /** The account whose keys may assume it (Faultline's own identity). */
  trustedAccountId: string;
}

export const newLockToken = () => randomUUID();
export const awsId = () => randomUUID();
export const accessKeyIdFor = (prefix: "AKIA" | "ASIA") => `${prefix}${randomBytes(8).toString("hex").toUpperCase()}`;
export const secretKey = () =>
  randomBytes(30)
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "x")
    .slice(0, 40);

export function ipSetArn(home: ResourceHome, name: string, id: string) {
  const region = home.scope === "CLOUDFRONT" ? "global" : home.region;
  return `arn:aws:wafv2:${home.region}:${home.accountId}:${region === "global" ? "global" : "regional"}/ipset/${name}/${id}`;
}

export function webAclArn(home: ResourceHome, name: string, id: string) {
  return `arn:aws:wafv2:${home.region}:${home.accountId}:${home.scope === "CLOUDFRONT" ? "global" : "regional"}/webacl/${name}/${id}`;
}
