/**
 * A loopback stand-in for AWS WAFv2 (JSON 1.1: `X-Amz-Target: AWSWAF_20190729.<Operation>`) and
 * STS (query protocol, XML answers), reached by the real `@aws-sdk/client-wafv2` and
 * `@aws-sdk/client-sts` through their endpoint settings. Requests must carry a valid SigV4
 * signature for a known key; updates rotate the IP set's LockToken; errors are AWS's modelled
 * types (`__type` + `message` in the body, with AWS's status). Tests seed it and can force lock
 * conflicts, throttling, denied actions and slow updates.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SignatureRejected, verifySigV4 } from "./sigv4-verify";
import { answerSts, type TemporaryCredentials } from "./sts-operations";
import {
  accessKeyIdFor,
  awsId,
  ipSetArn,
  newLockToken,
  secretKey,
  webAclArn,
  type ResourceHome,
  type StandInAccount,
  type StandInIpSet,
  type StandInRole,
  type StandInRule,
  type StandInSample,
  type StandInWebAcl,
} from "./waf-state";
import { answerWaf } from "./waf-operations";

export class AwsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export interface RecordedCall {
  service: "wafv2" | "sts";
  operation: string;
  accessKeyId: string;
  region: string;
  status: number;
}

export class AwsStandIn {
  url = "";
  readonly accounts = new Map<string, StandInAccount>();
  readonly roles = new Map<string, StandInRole>();
  readonly temporary = new Map<string, TemporaryCredentials>();
  readonly ipSets: StandInIpSet[] = [];
  readonly webAcls: StandInWebAcl[] = [];
  readonly samples: StandInSample[] = [];
  readonly calls: RecordedCall[] = [];
  /** UpdateIPSet answers WAFOptimisticLockException this many more times, token or not (another writer won). */
  forcedLockConflicts = 0;
  /** The next this many WAF calls answer ThrottlingException. */
  throttleNext = 0;
  /** How long UpdateIPSet takes, so racing callers overlap. */
  updateDelayMs = 0;
  private server: Server | null = null;

  async start() {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  addAccount(options: { accountId?: string; denied?: string[] } = {}): StandInAccount {
    const account = {
      accountId: options.accountId ?? String(100000000000 + this.accounts.size),
      accessKeyId: accessKeyIdFor("AKIA"),
      secretAccessKey: secretKey(),
      denied: new Set(options.denied ?? []),
    };
    this.accounts.set(account.accessKeyId, account);
    return account;
  }

  addRole(account: StandInAccount, trusted: StandInAccount, name = "FaultlineWaf"): StandInRole & { setExternalId(id: string): void } {
    const role = { arn: `arn:aws:iam::${account.accountId}:role/${name}`, accountId: account.accountId, externalId: "", trustedAccountId: trusted.accountId };
    this.roles.set(role.arn, role);
    return Object.assign(role, { setExternalId: (id: string) => void (role.externalId = id) });
  }

  addIpSet(home: ResourceHome, options: { name: string; version?: "IPV4" | "IPV6"; addresses?: string[] }): StandInIpSet {
    const id = awsId();
    const ipSet = {
      ...home,
      id,
      name: options.name,
      arn: ipSetArn(home, options.name, id),
      version: options.version ?? "IPV4",
      addresses: options.addresses ?? [],
      lockToken: newLockToken(),
    };
    this.ipSets.push(ipSet);
    return ipSet;
  }

  addWebAcl(home: ResourceHome, name: string, rules: StandInRule[]): StandInWebAcl {
    const id = awsId();
    const acl = { ...home, id, name, arn: webAclArn(home, name, id), lockToken: newLockToken(), rules };
    this.webAcls.push(acl);
    return acl;
  }

  addSample(sample: Omit<StandInSample, "at"> & { at?: Date }) {
    this.samples.push({ ...sample, at: sample.at ?? new Date() });
  }

  /** Deletes an IP set as someone in the AWS console would. */
  deleteIpSet(id: string) {
    const index = this.ipSets.findIndex((ipSet) => ipSet.id === id);
    if (index >= 0) this.ipSets.splice(index, 1);
  }

  ipSet(id: string) {
    return this.ipSets.find((ipSet) => ipSet.id === id);
  }

  /** Resolves a signing key to the account it acts as: a long-term key, or STS temporary credentials. */
  private secretFor = (accessKeyId: string) => {
    const account = this.accounts.get(accessKeyId);
    if (account) return { secretAccessKey: account.secretAccessKey };
    const temporary = this.temporary.get(accessKeyId);
    return temporary ? { secretAccessKey: temporary.secretAccessKey, sessionToken: temporary.sessionToken } : null;
  };

  accountOf(accessKeyId: string): StandInAccount {
    const temporary = this.temporary.get(accessKeyId);
    const account = temporary ? [...this.accounts.values()].find((candidate) => candidate.accountId === temporary.accountId) : this.accounts.get(accessKeyId);
    if (!account) throw new AwsError("UnrecognizedClientException", "The security token included in the request is invalid.");
    return account;
  }

  issueTemporary(accountId: string): TemporaryCredentials {
    const credentials = {
      accessKeyId: accessKeyIdFor("ASIA"),
      secretAccessKey: secretKey(),
      sessionToken: `FwoG${secretKey()}${secretKey()}`,
      accountId,
      expiration: new Date(Date.now() + 3600_000),
    };
    this.temporary.set(credentials.accessKeyId, credentials);
    return credentials;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const target = req.headers["x-amz-target"];
    const isWaf = typeof target === "string";
    const operation = isWaf ? target.replace(/^AWSWAF_20190729\./, "") : (new URLSearchParams(body.toString("utf8")).get("Action") ?? "Unknown");
    let accessKeyId = "";
    let region = "";
    try {
      const signed = verifySigV4({ method: req.method ?? "POST", path: req.url ?? "/", headers: req.headers, body }, this.secretFor);
      accessKeyId = signed.accessKeyId;
      region = signed.region;
      if (isWaf) {
        if (!target.startsWith("AWSWAF_20190729.")) throw new AwsError("UnknownOperationException", `Unknown target ${target}`);
        const answer = await answerWaf(this, { operation, region, account: this.accountOf(accessKeyId), input: JSON.parse(body.toString("utf8") || "{}") });
        this.record("wafv2", operation, accessKeyId, region, 200);
        res.writeHead(200, { "content-type": "application/x-amz-json-1.1", "x-amzn-requestid": awsId() });
        res.end(JSON.stringify(answer));
      } else {
        const xml = answerSts(this, { operation, accessKeyId, form: new URLSearchParams(body.toString("utf8")) });
        this.record("sts", operation, accessKeyId, region, 200);
        res.writeHead(200, { "content-type": "text/xml" });
        res.end(xml);
      }
    } catch (error) {
      const failure =
        error instanceof AwsError
          ? error
          : error instanceof SignatureRejected
            ? new AwsError(error.type, error.message, error.type === "InvalidSignatureException" ? 403 : 400)
            : new AwsError("WAFInternalErrorException", String(error), 500);
      this.record(isWaf ? "wafv2" : "sts", operation, accessKeyId, region, failure.status);
      if (isWaf) {
        res.writeHead(failure.status, { "content-type": "application/x-amz-json-1.1", "x-amzn-requestid": awsId() });
        res.end(JSON.stringify({ __type: failure.type, message: failure.message }));
      } else {
        res.writeHead(failure.status, { "content-type": "text/xml" });
        res.end(
          `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>${failure.type}</Code><Message>${escapeXml(failure.message)}</Message></Error><RequestId>${awsId()}</RequestId></ErrorResponse>`,
        );
      }
    }
  }

  private record(service: RecordedCall["service"], operation: string, accessKeyId: string, region: string, status: number) {
    this.calls.push({ service, operation, accessKeyId, region, status });
  }
}

export const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startAwsStandIn() {
  return new AwsStandIn().start();
}
