import type { NextFunction, Request, Response } from "express";

/**
 * Spec §7 calls better-auth 1.7 does not serve under the spec's name or method, rewritten before
 * better-auth sees the request so its own rules (rate limits, hooks, validation) all still apply:
 * - POST /forget-password is the older name of /request-password-reset (same body and answer);
 * - POST /account-info with body `{ accountId }` is better-auth's GET /account-info?accountId=…
 *   (provider-account-selection.ts turns the provider's account id into better-auth's row id).
 */
const FORGET_PASSWORD = "/api/auth/forget-password";
const ACCOUNT_INFO = "/api/auth/account-info";

function pathOf(url: string) {
  const queryAt = url.indexOf("?");
  return queryAt === -1 ? url : url.slice(0, queryAt);
}

function accountIdOf(body: unknown): string | null {
  if (typeof body !== "string") return null;
  try {
    const parsed = JSON.parse(body) as { accountId?: unknown };
    return typeof parsed?.accountId === "string" ? parsed.accountId : null;
  } catch {
    return null;
  }
}

export function authAliases(req: Request, res: Response, next: NextFunction) {
  if (req.method !== "POST") return next();
  const path = pathOf(req.url);
  if (path === FORGET_PASSWORD) {
    req.url = "/api/auth/request-password-reset" + req.url.slice(path.length);
    return next();
  }
  if (path === ACCOUNT_INFO) {
    const accountId = accountIdOf(req.body);
    if (accountId === null) {
      res.status(400).json({ code: "VALIDATION_ERROR", message: "Invalid body parameters" });
      return;
    }
    req.method = "GET";
    req.url = `${ACCOUNT_INFO}?${new URLSearchParams({ accountId })}`;
    req.body = undefined;
    delete req.headers["content-length"];
    delete req.headers["content-type"];
  }
  next();
}
