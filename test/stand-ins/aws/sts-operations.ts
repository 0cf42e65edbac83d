import { AwsError, escapeXml, type AwsStandIn } from "./aws-stand-in";

export interface TemporaryCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  accountId: string;
  expiration: Date;
}

/** STS AssumeRole over the query protocol: the role's trust policy names the caller's account and an ExternalId. */
export function answerSts(standIn: AwsStandIn, call: { operation: string; accessKeyId: string; form: URLSearchParams }): string {
  if (call.operation !== "AssumeRole")
    throw new AwsError("InvalidAction", `Could not find operation ${call.operation} for version ${call.form.get("Version")}`);
  const caller = standIn.accountOf(call.accessKeyId);
  const roleArn = call.form.get("RoleArn") ?? "";
  const sessionName = call.form.get("RoleSessionName") ?? "";
  const role = standIn.roles.get(roleArn);
  const notAuthorized = `User: arn:aws:iam::${caller.accountId}:user/faultline is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`;
  // AWS answers a missing role, an untrusted caller and a wrong ExternalId the same way.
  if (!role || role.trustedAccountId !== caller.accountId || role.externalId !== call.form.get("ExternalId"))
    throw new AwsError("AccessDenied", notAuthorized, 403);
  const credentials = standIn.issueTemporary(role.accountId);
  return `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <AssumedRoleUser>
      <AssumedRoleId>AROA3XFRBF535PLBIFPI4:${escapeXml(sessionName)}</AssumedRoleId>
      <Arn>${escapeXml(roleArn.replace(":role/", ":assumed-role/").replace("arn:aws:iam", "arn:aws:sts"))}/${escapeXml(sessionName)}</Arn>
    </AssumedRoleUser>
    <Credentials>
      <AccessKeyId>${credentials.accessKeyId}</AccessKeyId>
      <SecretAccessKey>${credentials.secretAccessKey}</SecretAccessKey>
      <SessionToken>${credentials.sessionToken}</SessionToken>
      <Expiration>${credentials.expiration.toISOString()}</Expiration>
    </Credentials>
  </AssumeRoleResult>
  <ResponseMetadata>
    <RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId>
  </ResponseMetadata>
</AssumeRoleResponse>`;
}
