import { WAF_IAM_ACTIONS, type ConnectWafInput } from "../../../shared/waf.inputs";
import type { IntegrationView, WafConnectionView, WafSetupView, WafTestResult } from "../../../shared/waf.views";
import { AppError } from "../../errors";
import type { WafConnection } from "./waf-client";
import { clearWafConnection, ensureWafConnectionRow, selectWafConnection, updateWafConnection, type WafConnectionRow } from "./waf-connection.queries";
import type { ServiceContext } from "../../context";
import { loadConnection, NOT_CONNECTED, requireWafService } from "./waf-context";
import { sealWafKeys } from "./waf-credentials";
import { can, requirePermission } from "../../organizations/permissions";

function toConnectionView(row: WafConnectionRow): WafConnectionView | null {
  if (!row.connectedAt || !row.region || !row.scope) return null;
  const scope = row.scope as WafConnectionView["scope"];
  return {
    status: row.status === "failing" ? "failing" : "connected",
    region: row.region,
    scope,
    accessKeyId: row.accessKeyIdLast4 ? `…${row.accessKeyIdLast4}` : null,
    roleArn: row.roleArn,
    externalId: row.externalId,
    blockList:
      row.blockListIpSetId && row.blockListIpSetName
        ? { ipSetId: row.blockListIpSetId, name: row.blockListIpSetName, scope, version: row.blockListVersion === "IPV6" ? "IPV6" : "IPV4" }
        : null,
    lastError: row.lastError,
    connectedAt: row.connectedAt,
  };
}

/** `GET /integrations`: every integration Faultline offers, with this organization's status. */
export async function listIntegrations(ctx: ServiceContext): Promise<IntegrationView[]> {
  const row = await selectWafConnection(ctx.db, ctx.org.organizationId);
  const view = row ? toConnectionView(row) : null;
  return [
    {
      id: "aws-waf",
      name: "AWS WAF",
      status: view ? view.status : "not_connected",
      lastError: view?.lastError ?? null,
      connectedAt: view?.connectedAt ?? null,
    },
  ];
}

/** `GET /integrations/aws/waf`: the connection, or NOT_FOUND when there is none. */
export async function getWafConnection(ctx: ServiceContext): Promise<WafConnectionView> {
  const row = await selectWafConnection(ctx.db, ctx.org.organizationId);
  const view = row ? toConnectionView(row) : null;
  if (!view) throw new AppError("NOT_FOUND", NOT_CONNECTED);
  return view;
}

/** What the screens need whether connected or not; creates the ExternalId on first sight. */
export async function getWafSetup(ctx: ServiceContext): Promise<WafSetupView> {
  const row = await ensureWafConnectionRow(ctx.db, ctx.org.organizationId);
  return {
    externalId: row.externalId,
    iamActions: [...WAF_IAM_ACTIONS],
    rolesAvailable: ctx.waf?.rolesAvailable ?? false,
    canManage: await can(ctx, "integration:connect"),
    connection: toConnectionView(row),
  };
}

async function connectionFromInput(ctx: ServiceContext, input: ConnectWafInput): Promise<WafConnection> {
  if (input.roleArn) {
    const row = await ensureWafConnectionRow(ctx.db, ctx.org.organizationId);
    return { region: input.region, scope: input.scope, credentials: { kind: "role", roleArn: input.roleArn, externalId: row.externalId } };
  }
  return { region: input.region, scope: input.scope, credentials: { kind: "keys", accessKeyId: input.accessKeyId!, secretAccessKey: input.secretAccessKey! } };
}

/** "Test connection": ListWebACLs (and ListIPSets) with the given credentials; nothing is stored. */
export async function testWafConnection(ctx: ServiceContext, input: ConnectWafInput): Promise<WafTestResult> {
  await requirePermission(ctx, "integration:connect");
  const waf = requireWafService(ctx);
  const connection = await connectionFromInput(ctx, input);
  const webAcls = await waf.client.listWebAcls(connection);
  const ipSets = await waf.client.listIpSets(connection);
  return { webAcls: webAcls.map(({ id, name }) => ({ id, name })), ipSetCount: ipSets.length };
}

/**
 * `PUT /integrations/aws/waf`: connect, or replace the credentials in place. ListWebACLs runs
 * with the new credentials first; only if AWS accepts them are they sealed and stored, so a
 * failure stores nothing and leaves an existing connection as it was.
 */
export async function connectWaf(ctx: ServiceContext, input: ConnectWafInput): Promise<WafConnectionView> {
  await requirePermission(ctx, "integration:connect");
  const waf = requireWafService(ctx);
  const connection = await connectionFromInput(ctx, input);
  await waf.client.listWebAcls(connection);
  const before = await ensureWafConnectionRow(ctx.db, ctx.org.organizationId);
  // The block list survives a reconnect only if the new credentials still see that IP set (same
  // region and scope, same account); otherwise "Block this IP" would write to a set that is not there.
  const keepBlockList =
    before.blockListIpSetId !== null &&
    before.region === input.region &&
    before.scope === input.scope &&
    (await waf.client.listIpSets(connection)).some((ipSet) => ipSet.id === before.blockListIpSetId);
  const keys = connection.credentials.kind === "keys" ? connection.credentials : null;
  await updateWafConnection(ctx.db, ctx.org.organizationId, {
    region: input.region,
    scope: input.scope,
    ...(keys ? sealWafKeys(waf.secretBox, ctx.org.organizationId, keys) : { accessKeyIdSealed: null, secretAccessKeySealed: null }),
    accessKeyIdLast4: keys ? keys.accessKeyId.slice(-4) : null,
    roleArn: input.roleArn ?? null,
    ...(keepBlockList ? {} : { blockListIpSetId: null, blockListIpSetName: null, blockListIpSetArn: null, blockListVersion: null }),
    status: "connected",
    lastError: null,
    connectedAt: before.connectedAt ?? new Date(),
    connectedByUserId: ctx.org.userId,
  });
  return getWafConnection(ctx);
}

/** `DELETE /integrations/aws/waf`: the sealed credentials are deleted; the audit history stays. */
export async function disconnectWaf(ctx: ServiceContext): Promise<{ disconnected: boolean }> {
  await requirePermission(ctx, "integration:connect");
  await loadConnectionRowOrThrow(ctx);
  await clearWafConnection(ctx.db, ctx.org.organizationId);
  return { disconnected: true };
}

async function loadConnectionRowOrThrow(ctx: ServiceContext) {
  const row = await selectWafConnection(ctx.db, ctx.org.organizationId);
  if (!row?.connectedAt) throw new AppError("NOT_FOUND", NOT_CONNECTED);
  return row;
}

export { loadConnection };
