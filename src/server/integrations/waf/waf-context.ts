import type { ServiceContext } from "../../context";
import { AppError } from "../../errors";
import { SecretOpenError } from "../../secrets/secret-box";
import type { WafConnection } from "./waf-client";
import { selectWafConnection, updateWafConnection, type WafConnectionRow } from "./waf-connection.queries";
import { openWafKeys } from "./waf-credentials";
import type { WafIntegration } from "./waf.module";

export const NOT_CONNECTED = "The AWS WAF integration is not connected";

export function requireWafService(ctx: Pick<ServiceContext, "db" | "org" | "waf">): WafIntegration {
  if (!ctx.waf) throw new AppError("SERVICE_UNAVAILABLE", "The AWS WAF integration is not available on this server");
  return ctx.waf;
}

export interface ConnectedWaf {
  row: WafConnectionRow & { region: string; scope: "REGIONAL" | "CLOUDFRONT"; connectedAt: Date };
  connection: WafConnection;
  waf: WafIntegration;
}

/** The organization's connection with its credentials opened, or NOT_FOUND when it has none. */
export async function loadConnection(ctx: Pick<ServiceContext, "db" | "org" | "waf">): Promise<ConnectedWaf> {
  const waf = requireWafService(ctx);
  const row = await selectWafConnection(ctx.db, ctx.org.organizationId);
  if (!row?.connectedAt || !row.region || !row.scope) throw new AppError("NOT_FOUND", NOT_CONNECTED);
  const connected = row as ConnectedWaf["row"];
  if (row.roleArn)
    return {
      row: connected,
      waf,
      connection: { region: row.region, scope: connected.scope, credentials: { kind: "role", roleArn: row.roleArn, externalId: row.externalId } },
    };
  if (!row.accessKeyIdSealed || !row.secretAccessKeySealed) throw new AppError("NOT_FOUND", NOT_CONNECTED);
  try {
    const keys = openWafKeys(waf.secretBox, ctx.org.organizationId, {
      accessKeyIdSealed: row.accessKeyIdSealed,
      secretAccessKeySealed: row.secretAccessKeySealed,
    });
    return { row: connected, waf, connection: { region: row.region, scope: connected.scope, credentials: { kind: "keys", ...keys } } };
  } catch (error) {
    if (!(error instanceof SecretOpenError)) throw error;
    // A value sealed for another organization, or a SECRETS_KEY that lost its old version: only
    // reconnecting helps, so the card says so too.
    const message = "The stored AWS credentials cannot be opened with this server's SECRETS_KEY; reconnect the integration";
    await updateWafConnection(ctx.db, ctx.org.organizationId, { status: "failing", lastError: message });
    throw new AppError("INTERNAL_SERVER_ERROR", message);
  }
}

const CREDENTIAL_FAILURES = new Set(["aws_credentials_rejected", "aws_access_denied", "aws_no_assumer"]);

/**
 * Runs an AWS call with the stored connection and keeps the card's status honest: refused
 * credentials or permissions mark the connection failing with AWS's reason; a later success
 * marks it connected again.
 */
export async function withConnection<T>(ctx: Pick<ServiceContext, "db" | "org" | "waf">, call: (connected: ConnectedWaf) => Promise<T>): Promise<T> {
  const connected = await loadConnection(ctx);
  try {
    const result = await call(connected);
    if (connected.row.status !== "connected") await updateWafConnection(ctx.db, ctx.org.organizationId, { status: "connected", lastError: null });
    return result;
  } catch (error) {
    if (error instanceof AppError && CREDENTIAL_FAILURES.has(String(error.details?.reason))) {
      await updateWafConnection(ctx.db, ctx.org.organizationId, { status: "failing", lastError: error.message });
    }
    throw error;
  }
}
