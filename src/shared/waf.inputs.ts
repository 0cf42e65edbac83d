import { z } from "zod";
import { MIN_PREFIX, parseIpOrCidr } from "./ip-address";

/** Every region AWS WAFv2 is offered in. */
export const WAF_REGIONS = [
  "us-east-1",
  "us-east-2",
  "us-west-1",
  "us-west-2",
  "af-south-1",
  "ap-east-1",
  "ap-south-1",
  "ap-south-2",
  "ap-southeast-1",
  "ap-southeast-2",
  "ap-southeast-3",
  "ap-southeast-4",
  "ap-southeast-5",
  "ap-southeast-7",
  "ap-northeast-1",
  "ap-northeast-2",
  "ap-northeast-3",
  "ca-central-1",
  "ca-west-1",
  "eu-central-1",
  "eu-central-2",
  "eu-west-1",
  "eu-west-2",
  "eu-west-3",
  "eu-south-1",
  "eu-south-2",
  "eu-north-1",
  "il-central-1",
  "me-south-1",
  "me-central-1",
  "mx-central-1",
  "sa-east-1",
  "us-gov-east-1",
  "us-gov-west-1",
  "cn-north-1",
  "cn-northwest-1",
] as const;
export const WAF_SCOPES = ["REGIONAL", "CLOUDFRONT"] as const;
/** CloudFront web ACLs are global and managed through this region. */
export const CLOUDFRONT_REGION = "us-east-1";

/** What the connect drawer lists: the IAM actions the credentials (or the role) must allow. */
export const WAF_IAM_ACTIONS = [
  "wafv2:ListWebACLs",
  "wafv2:GetWebACL",
  "wafv2:ListIPSets",
  "wafv2:GetIPSet",
  "wafv2:UpdateIPSet",
  "wafv2:GetSampledRequests",
] as const;

const AccessKeyId = z
  .string()
  .trim()
  .regex(/^AKIA[A-Z0-9]{16}$/, "An access key id is 20 characters starting with AKIA (a long-term key of an IAM user)");
const SecretAccessKey = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9/+=]{40}$/, "A secret access key is 40 characters of letters, digits, / and +");
const RoleArn = z
  .string()
  .trim()
  .regex(/^arn:aws(?:-cn|-us-gov)?:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/, "A role ARN looks like arn:aws:iam::123456789012:role/FaultlineWaf");

/**
 * Either an IAM user's access key pair or a role ARN (assumed with the organization's ExternalId).
 * CLOUDFRONT implies us-east-1.
 */
export const ConnectWafInput = z
  .object({
    region: z.enum(WAF_REGIONS, { message: "Please choose an AWS region" }),
    scope: z.enum(WAF_SCOPES, { message: "Please choose REGIONAL or CLOUDFRONT" }),
    accessKeyId: AccessKeyId.optional(),
    secretAccessKey: SecretAccessKey.optional(),
    roleArn: RoleArn.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.scope === "CLOUDFRONT" && input.region !== CLOUDFRONT_REGION) {
      ctx.addIssue({ code: "custom", path: ["region"], message: "CloudFront web ACLs are managed in us-east-1" });
    }
    const keys = input.accessKeyId !== undefined || input.secretAccessKey !== undefined;
    if (keys && input.roleArn !== undefined) ctx.addIssue({ code: "custom", path: ["roleArn"], message: "Give either an access key or a role ARN, not both" });
    else if (!keys && input.roleArn === undefined)
      ctx.addIssue({ code: "custom", path: ["accessKeyId"], message: "Give an access key id and secret access key, or a role ARN" });
    else if (keys && input.accessKeyId === undefined) ctx.addIssue({ code: "custom", path: ["accessKeyId"], message: "Please enter the access key id" });
    else if (keys && input.secretAccessKey === undefined)
      ctx.addIssue({ code: "custom", path: ["secretAccessKey"], message: "Please enter the secret access key" });
  });
export type ConnectWafInput = z.infer<typeof ConnectWafInput>;

const AwsId = z
  .string()
  .trim()
  .min(1, "Please choose an IP set")
  .max(128)
  .regex(/^[\w-]+$/, "Not an AWS WAF id");

export const SetBlockListInput = z.object({ ipSetId: AwsId });
export type SetBlockListInput = z.infer<typeof SetBlockListInput>;

export const IpSetIdInput = z.object({ ipSetId: AwsId });
export type IpSetIdInput = z.infer<typeof IpSetIdInput>;

/** An address or CIDR, canonicalised; a bare address becomes /32 or /128, and very wide blocks are refused. */
export const BlockAddress = z
  .string()
  .max(64, "Not an IP address or CIDR block")
  .transform((text, ctx) => {
    const parsed = parseIpOrCidr(text);
    if (!parsed) {
      ctx.addIssue({ code: "custom", message: "Not an IP address or CIDR block (e.g. 203.0.113.7, 198.51.100.0/24, 2001:db8::1)" });
      return z.NEVER;
    }
    if (parsed.prefix < MIN_PREFIX[parsed.family]) {
      ctx.addIssue({ code: "custom", message: `Blocks wider than /${MIN_PREFIX[parsed.family]} are refused: they would block far more than one client` });
      return z.NEVER;
    }
    return parsed.cidr;
  });

export const BlockIpInput = z.object({
  ip: BlockAddress,
  /** Another IP set than the block list (the WAF screen edits any set); the block list by default. */
  ipSetId: AwsId.optional(),
  projectId: z.uuid("Invalid project id").optional(),
  issueId: z.uuid("Invalid issue id").optional(),
  exceptionId: z.uuid("Invalid exception id").optional(),
});
export type BlockIpInput = z.input<typeof BlockIpInput>;

export const UnblockIpInput = BlockIpInput;
export type UnblockIpInput = z.input<typeof UnblockIpInput>;

export const BlockStatusInput = z.object({ ip: BlockAddress });
export type BlockStatusInput = z.input<typeof BlockStatusInput>;

export const ListWafAuditInput = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  ip: BlockAddress.optional(),
});
export type ListWafAuditInput = z.input<typeof ListWafAuditInput>;
