import { createLogger, type BetterAuthOptions, type DBAdapter, type DBTransactionAdapter, type JoinOption } from "better-auth";
import { isSealed, type SecretBox, type SecretContext } from "../secrets/secret-box";

/**
 * OAuth tokens of linked accounts, sealed at rest with the secrets module.
 *
 * better-auth 1.7's own `account.encryptOAuthTokens` is not used: it encrypts with AUTH_SECRET
 * (so rotating the session secret would lose every token), leaves the id token in plaintext,
 * binds nothing to the row, and guesses "encrypted" from any even-length hex string. Instead
 * this wraps the database adapter: every account row is sealed on its way in and opened on its
 * way out, so all of better-auth's readers (get-access-token, refresh-token, account-info,
 * linking, the refresh inside them) keep seeing plaintext and nothing else changes.
 */
export const OAUTH_TOKEN_FIELDS = ["accessToken", "refreshToken", "idToken"] as const;
const ACCOUNT = "account";
const PURPOSE = "oauth-token";

type Row = Record<string, unknown>;
type AdapterFactory = (options: BetterAuthOptions) => DBAdapter<BetterAuthOptions>;

/** The additional data a token of `userId` is sealed with; the start-up pass uses the same. */
export const oauthTokenContext = (userId: string, field: string): SecretContext => ({ owner: `user:${userId}`, purpose: PURPOSE, field });

const hasTokenFields = (data: Row) => OAUTH_TOKEN_FIELDS.some((field) => typeof data[field] === "string");

export function sealOAuthTokens(factory: AdapterFactory, box: SecretBox): AdapterFactory {
  return (options) => {
    const logger = createLogger(options.logger);
    const adapter = factory(options);
    const codec = {
      seal(data: Row, userId: string): Row {
        const sealed = { ...data };
        for (const field of OAUTH_TOKEN_FIELDS) {
          const value = data[field];
          if (typeof value === "string") sealed[field] = box.seal(value, oauthTokenContext(userId, field));
        }
        return sealed;
      },
      open(row: Row): Row {
        const userId = row.userId;
        if (typeof userId !== "string") return row;
        const opened = { ...row };
        for (const field of OAUTH_TOKEN_FIELDS) {
          const value = row[field];
          // Unsealed values are rows written before sealing (or by a replica not yet upgraded);
          // sealLegacyOAuthTokens seals them at start-up. Until then they read as they are.
          if (typeof value !== "string" || !isSealed(value)) continue;
          try {
            opened[field] = box.open(value, oauthTokenContext(userId, field));
          } catch (error) {
            // A lost or dropped SECRETS_KEY must not lock people out: the token reads as absent
            // (get-access-token then fails cleanly) and the next sign-in with the provider stores
            // a fresh one. Never log the value.
            logger.error(`OAuth ${field} of account ${String(row.id)} cannot be opened: ${(error as Error).message}`);
            opened[field] = null;
          }
        }
        return opened;
      },
    };
    return { ...wrapOperations(adapter, codec), transaction: (callback) => adapter.transaction((trx) => callback(wrapOperations(trx, codec))) };
  };
}

interface Codec {
  seal(data: Row, userId: string): Row;
  open(row: Row): Row;
}

function wrapOperations(inner: DBTransactionAdapter, codec: Codec): DBTransactionAdapter {
  /** Opens account rows, whether asked for directly or joined to a user (`join: { account: true }`). */
  const openResult = <T>(model: string, result: unknown, join?: JoinOption): T => {
    if (!result || typeof result !== "object") return result as T;
    if (model === ACCOUNT) return codec.open(result as Row) as T;
    if (!join?.[ACCOUNT]) return result as T;
    const row = result as Row;
    const joined = row[ACCOUNT];
    if (Array.isArray(joined)) return { ...row, [ACCOUNT]: joined.map((item: Row) => codec.open(item)) } as T;
    if (joined && typeof joined === "object") return { ...row, [ACCOUNT]: codec.open(joined as Row) } as T;
    return result as T;
  };
  /** A narrowed select still needs userId to open the tokens; it is dropped again afterwards. */
  const widen = (model: string, select?: string[]) =>
    model === ACCOUNT && select && select.some((field) => (OAUTH_TOKEN_FIELDS as readonly string[]).includes(field)) && !select.includes("userId")
      ? [...select, "userId"]
      : select;
  const narrow = (row: unknown, select: string[] | undefined, widened: string[] | undefined) => {
    if (widened === select || !row || typeof row !== "object") return row;
    const { userId: _userId, ...rest } = row as Row;
    return rest;
  };
  const ownerOf = async (model: string, where: Parameters<DBTransactionAdapter["update"]>[0]["where"], update: Row) => {
    if (typeof update.userId === "string") return update.userId;
    const row = await inner.findOne<Row>({ model, where, select: ["userId"] });
    return typeof row?.userId === "string" ? row.userId : null;
  };

  return {
    ...inner,
    create: async (args) => {
      if (args.model !== ACCOUNT || !hasTokenFields(args.data)) return openResult(args.model, await inner.create(args));
      const userId = args.data.userId;
      if (typeof userId !== "string") throw new Error("An account with OAuth tokens needs its userId to seal them");
      return openResult(args.model, await inner.create({ ...args, data: codec.seal(args.data, userId) as typeof args.data }));
    },
    findOne: async (args) => {
      const select = widen(args.model, args.select);
      const row = await inner.findOne({ ...args, select });
      return narrow(openResult(args.model, row, args.join), args.select, select) as never;
    },
    findMany: async (args) => {
      const select = widen(args.model, args.select);
      const rows = await inner.findMany({ ...args, select });
      return rows.map((row) => narrow(openResult(args.model, row, args.join), args.select, select)) as never;
    },
    update: async (args) => {
      if (args.model !== ACCOUNT || !hasTokenFields(args.update)) return openResult(args.model, await inner.update(args));
      const userId = await ownerOf(args.model, args.where, args.update);
      if (userId === null) return null;
      return openResult(args.model, await inner.update({ ...args, update: codec.seal(args.update, userId) }));
    },
    updateMany: async (args) => {
      if (args.model !== ACCOUNT || !hasTokenFields(args.update)) return inner.updateMany(args);
      // Each row's tokens are sealed to its own owner, so a bulk write becomes one write per row.
      // better-auth 1.7 never bulk-writes tokens; this keeps a future version from storing plaintext.
      const rows = await inner.findMany<Row>({ model: args.model, where: args.where, select: ["id", "userId"] });
      for (const row of rows) {
        await inner.update({ model: args.model, where: [{ field: "id", value: row.id as string }], update: codec.seal(args.update, row.userId as string) });
      }
      return rows.length;
    },
    consumeOne: async (args) => openResult(args.model, await inner.consumeOne(args)),
    incrementOne: async (args) => {
      if (args.model === ACCOUNT && args.set && hasTokenFields(args.set)) throw new Error("incrementOne cannot write OAuth tokens; use update");
      return openResult(args.model, await inner.incrementOne(args));
    },
  };
}
