import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { alertActionSecretContext } from "../alerts/alert-action-secrets";
import { oauthTokenContext } from "../auth/oauth-token-sealing";
import { account } from "../db/schema/auth";
import { alertActions, wafConnections } from "../db/schema/index";
import { wafSecretContext } from "../integrations/waf/waf-credentials";
import type { SecretContext } from "./secret-box";

/** One sealed column and the additional data its value in a row was sealed with. */
export interface SealedColumn<Owner extends string> {
  /** Unique within the family; also the key the column is read under. */
  name: string;
  column: AnyPgColumn;
  // Method syntax on purpose: families with different owner columns share one list.
  context(owner: Record<Owner, string>): SecretContext;
}

/** A table whose rows hold values sealed with SECRETS_KEY. */
export interface SealedFamily<Owner extends string = string> {
  /** How start-up and reseal messages name it, e.g. "AWS WAF credentials". */
  label: string;
  table: PgTable;
  /** The row's primary key: batches walk it, and each write is a compare-and-set on it. */
  id: AnyPgColumn;
  /** The columns the additional data is built from (organization, project, action, user). */
  owner: Record<Owner, AnyPgColumn>;
  sealed: readonly SealedColumn<Owner>[];
}

const family = <Owner extends string>(definition: SealedFamily<Owner>): SealedFamily => definition as unknown as SealedFamily;

/**
 * Every sealed value in the database, by family. `npm run secrets:reseal` re-seals what these list
 * and the start-up check refuses a SECRETS_KEY that cannot open them, so a column sealed anywhere
 * else would be lost at the next key rotation: a new sealed column is added here, and only here.
 */
export const SEALED_FAMILIES: readonly SealedFamily[] = [
  family({
    label: "AWS WAF credentials",
    table: wafConnections,
    id: wafConnections.organizationId,
    owner: { organizationId: wafConnections.organizationId },
    sealed: [
      { name: "accessKeyId", column: wafConnections.accessKeyIdSealed, context: (row) => wafSecretContext(row.organizationId, "accessKeyId") },
      { name: "secretAccessKey", column: wafConnections.secretAccessKeySealed, context: (row) => wafSecretContext(row.organizationId, "secretAccessKey") },
    ],
  }),
  family({
    label: "alert action URLs and signing secrets",
    table: alertActions,
    id: alertActions.id,
    owner: { projectId: alertActions.projectId, actionId: alertActions.id },
    sealed: [
      { name: "url", column: alertActions.urlSealed, context: (row) => alertActionSecretContext(row.projectId, row.actionId, "url") },
      {
        name: "signingSecret",
        column: alertActions.signingSecretSealed,
        context: (row) => alertActionSecretContext(row.projectId, row.actionId, "signingSecret"),
      },
    ],
  }),
  family({
    label: "OAuth tokens of linked accounts",
    table: account,
    id: account.id,
    owner: { userId: account.userId },
    sealed: [
      { name: "accessToken", column: account.accessToken, context: (row) => oauthTokenContext(row.userId, "accessToken") },
      { name: "refreshToken", column: account.refreshToken, context: (row) => oauthTokenContext(row.userId, "refreshToken") },
      { name: "idToken", column: account.idToken, context: (row) => oauthTokenContext(row.userId, "idToken") },
    ],
  }),
];
