import { AppError } from "../../errors";

/** The few fields of an SDK service exception (or a network error) the mapping reads. */
interface AwsFailure {
  name?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  $retryable?: { throttling?: boolean };
}

const REJECTED_KEYS = new Set([
  "UnrecognizedClientException",
  "InvalidSignatureException",
  "InvalidClientTokenId",
  "SignatureDoesNotMatch",
  "IncompleteSignature",
  "MissingAuthenticationTokenException",
  "ExpiredTokenException",
]);
const THROTTLING = new Set(["ThrottlingException", "Throttling", "TooManyRequestsException", "RequestLimitExceeded", "WAFServiceLinkedRoleErrorException"]);
const NETWORK = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "EAI_AGAIN", "EHOSTUNREACH", "TimeoutError"]);

/** The IAM action named in an AccessDenied message ("… not authorized to perform: wafv2:UpdateIPSet …"). */
export function deniedAction(message: string | undefined): string | null {
  return /perform: ([a-z0-9-]+:[A-Za-z0-9]+)/.exec(message ?? "")?.[1] ?? null;
}

/**
 * AWS's answer as an AppError the user can act on. `resource` names what the call was about
 * ("IP set", "web ACL") for NOT_FOUND. AWS's own message is passed through where it helps; it
 * never holds the secret key (AWS does not echo it).
 */
export function wafError(error: unknown, context: { action: string; resource?: string }): AppError {
  if (error instanceof AppError) return error;
  const failure = (error ?? {}) as AwsFailure;
  const type = failure.name ?? "Error";
  const message = failure.message ?? "";
  if (REJECTED_KEYS.has(type)) {
    return new AppError("BAD_REQUEST", `AWS rejected the credentials (${type}): check the access key id and secret access key`, {
      reason: "aws_credentials_rejected",
    });
  }
  if (type === "AccessDeniedException" || type === "AccessDenied") {
    const action = deniedAction(message) ?? context.action;
    return new AppError("BAD_REQUEST", `AWS denied ${action}: allow it in the IAM policy of these credentials`, { reason: "aws_access_denied", action });
  }
  if (type === "WAFOptimisticLockException")
    return new AppError("CONFLICT", "The IP set was changed by someone else; read it again", { reason: "aws_lock_conflict" });
  if (type === "WAFNonexistentItemException") {
    const resource = context.resource ?? "resource";
    return new AppError("NOT_FOUND", `The ${resource} no longer exists in AWS WAF (deleted in AWS?)`, { reason: "aws_nonexistent" });
  }
  if (type === "WAFLimitsExceededException") {
    return new AppError("BAD_REQUEST", "The IP set is full: AWS WAF allows at most 10,000 addresses in one IP set", { reason: "aws_limit_exceeded" });
  }
  if (type === "WAFInvalidParameterException" && /SCOPE_VALUE/.test(message)) {
    return new AppError(
      "BAD_REQUEST",
      "AWS refused the scope for this region: CLOUDFRONT resources are managed in us-east-1, REGIONAL ones in their own region",
      {
        reason: "aws_scope_mismatch",
      },
    );
  }
  if (type === "WAFInvalidParameterException")
    return new AppError("BAD_REQUEST", `AWS WAF refused the request: ${message}`, { reason: "aws_invalid_parameter" });
  if (THROTTLING.has(type) || failure.$retryable?.throttling) {
    return new AppError("SERVICE_UNAVAILABLE", "AWS WAF is throttling requests and still did after retrying; try again in a minute", {
      reason: "aws_throttled",
    });
  }
  if (NETWORK.has(failure.code ?? "") || NETWORK.has(type)) {
    return new AppError("SERVICE_UNAVAILABLE", "AWS WAF could not be reached; try again later", { reason: "aws_unreachable" });
  }
  return new AppError("BAD_GATEWAY", `AWS WAF failed ${context.action}: ${type}${message ? `: ${message}` : ""}`, { reason: "aws_error" });
}
