import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** Why a request's signature was refused, in AWS's own error types (what the SDK then throws). */
export class SignatureRejected extends Error {
  constructor(
    readonly type: "MissingAuthenticationTokenException" | "UnrecognizedClientException" | "InvalidSignatureException" | "IncompleteSignature",
    message: string,
  ) {
    super(message);
  }
}

export interface VerifiedSignature {
  accessKeyId: string;
  region: string;
  service: string;
  sessionToken: string | undefined;
}

const sha256Hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data).digest();

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/**
 * Checks an AWS Signature Version 4 the way AWS does (canonical request, string to sign, derived
 * key), so the real SDK's signing is exercised and a wrong secret is refused as AWS refuses it.
 * `secretFor` returns the secret of a known key id (and the session token it requires), or null.
 */
export function verifySigV4(
  request: { method: string; path: string; headers: IncomingHttpHeaders; body: Buffer },
  secretFor: (accessKeyId: string) => { secretAccessKey: string; sessionToken?: string } | null,
): VerifiedSignature {
  const authorization = request.headers.authorization;
  if (!authorization) throw new SignatureRejected("MissingAuthenticationTokenException", "Missing Authentication Token");
  const match = AUTHORIZATION.exec(authorization);
  if (!match) throw new SignatureRejected("IncompleteSignature", "Authorization header requires Credential, SignedHeaders and Signature");
  const [, accessKeyId, day, region, service, signedHeaderList, signature] = match as unknown as string[];
  const known = secretFor(accessKeyId!);
  if (!known) throw new SignatureRejected("UnrecognizedClientException", "The security token included in the request is invalid.");
  const sessionToken = header(request.headers, "x-amz-security-token");
  if (known.sessionToken !== undefined && known.sessionToken !== sessionToken)
    throw new SignatureRejected("UnrecognizedClientException", "The security token included in the request is invalid.");
  const amzDate = header(request.headers, "x-amz-date");
  if (!amzDate?.startsWith(day!)) throw new SignatureRejected("IncompleteSignature", "X-Amz-Date does not match the credential scope");

  const signedHeaders = signedHeaderList!.split(";");
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${(header(request.headers, name) ?? "").trim().replace(/\s+/g, " ")}\n`).join("");
  const [path, query = ""] = request.path.split("?");
  const canonicalQuery = query.split("&").filter(Boolean).sort().join("&");
  const payloadHash = header(request.headers, "x-amz-content-sha256") ?? sha256Hex(request.body);
  const canonicalRequest = [request.method, path, canonicalQuery, canonicalHeaders, signedHeaderList, payloadHash].join("\n");
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${known.secretAccessKey}`, day!), region!), service!), "aws4_request");
  const expected = createHmac("sha256", signingKey).update(stringToSign).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature!, "hex"))) {
    throw new SignatureRejected(
      "InvalidSignatureException",
      "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.",
    );
  }
  return { accessKeyId: accessKeyId!, region: region!, service: service!, sessionToken };
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}
