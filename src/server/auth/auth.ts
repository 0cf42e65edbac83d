import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { deviceAuthorization, organization } from "better-auth/plugins";
import type { Db } from "../db/client";
import * as schema from "../db/schema/index";
import type { Env } from "../env";
import type { Logger } from "../logger";
import type { SecretBox } from "../secrets/secret-box";
import type { BillingProvider } from "../billing/billing-provider";
import { plansApply } from "../billing/organization-plan";
import { seatSyncHook } from "../billing/seat-sync";
import { ac, roles } from "./access-control";
import { authAfterHook, authBeforeHook } from "./auth-hooks";
import { avatarPolicy } from "./avatar-policy";
import { deviceAuthorizationOptions } from "./device-authorization";
import type { Mailer } from "./mailer";
import { sealOAuthTokens } from "./oauth-token-sealing";
import { assertNotSoleOwner } from "./sole-owner";
import { genericOAuthPlugin, socialProvidersConfig, trustedProviderIds } from "./social-providers";
import { installScopedAuthStorages } from "./scoped-async-storage";

/** Header the Express layer sets from req.ip (honouring TRUST_PROXY); client copies are stripped. */
export const CLIENT_IP_HEADER = "x-faultline-client-ip";

export const AUTH_BASE_PATH = "/api/auth";
const ONE_HOUR = 60 * 60;
const SESSION_FRESH_AGE = 24 * ONE_HOUR;
/** Enough for any team structure we know of; bounds the roles loaded on every permission check. */
export const MAX_CUSTOM_ROLES = 20;

export interface AuthDeps {
  env: Env;
  db: Db;
  mailer: Mailer;
  secret: string;
  logger: Logger;
  /** Seals linked accounts' OAuth tokens at rest (oauth-token-sealing.ts). */
  secretBox: SecretBox;
  /** The hosted deployment's billing provider: membership changes update the subscription's seats. */
  billing?: BillingProvider;
}

export function createAuth({ env, db, mailer, secret, logger, secretBox, billing }: AuthDeps) {
  // better-auth's request state without process-wide promise hooks between its calls.
  installScopedAuthStorages();
  const appUrl = env.API_URL.replace(/\/$/, "");
  const seatSync = billing && plansApply(env) ? seatSyncHook({ db, provider: billing, logger }) : undefined;
  return betterAuth({
    appName: "Faultline",
    baseURL: appUrl,
    // better-auth's own logger prints coloured, multi-line text with request data in it; through
    // ours every line stays one JSON object, redacted like the rest.
    logger: {
      level: "warn",
      log: (level, message, ...args) => logger[level](`better-auth: ${message}`, args.length > 0 ? { details: args } : undefined),
    },
    // Otherwise better-call prints an unexpected error raw (console.error, multi-line); thrown, it
    // reaches Express's error handlers (http/auth-errors.ts), which answer and log one JSON line.
    onAPIError: { throw: true },
    basePath: AUTH_BASE_PATH,
    secret,
    database: sealOAuthTokens(
      drizzleAdapter(db, {
        provider: "pg",
        schema: {
          ...schema,
          user: schema.user,
          session: schema.session,
          account: schema.account,
          verification: schema.verification,
          organization: schema.organization,
          member: schema.member,
          invitation: schema.invitation,
          team: schema.team,
          teamMember: schema.teamMember,
          organizationRole: schema.organizationRole,
          deviceCode: schema.deviceCode,
          rateLimit: schema.rateLimit,
        },
      }),
      secretBox,
    ),
    trustedOrigins: [appUrl, ...env.TRUSTED_ORIGINS],
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      requireEmailVerification: env.REQUIRE_EMAIL_VERIFICATION,
      resetPasswordTokenExpiresIn: ONE_HOUR,
      revokeSessionsOnPasswordReset: true,
      // Spec §8: while verification is required a duplicate sign-up answers like a new one (no
      // account enumeration), so the owner of the address is told instead (issue 14, item 9).
      onExistingUserSignUp: async ({ user }) => {
        await mailer.send({
          kind: "existing-account",
          to: user.email,
          subject: "Someone tried to sign up to Faultline with your address",
          text: `Hi ${user.name},\n\nSomeone tried to sign up to Faultline with your email address, which already has an account. If it was you, sign in at ${appUrl}/auth/login, or reset your password with the link below. If it was not you, ignore this mail: nothing has changed.`,
          actionUrl: `${appUrl}/auth/forgot-password`,
        });
      },
      sendResetPassword: async ({ user, url }) => {
        await mailer.send({
          kind: "reset-password",
          to: user.email,
          subject: "Reset your Faultline password",
          text: `Hi ${user.name},\n\nSomeone asked to reset the password of your Faultline account. Open the link below within one hour to choose a new one. If it was not you, ignore this mail.`,
          actionUrl: url,
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: ONE_HOUR,
      sendVerificationEmail: async ({ user, url }) => {
        await mailer.send({
          kind: "verification",
          to: user.email,
          subject: "Verify your email for Faultline",
          text: `Hi ${user.name},\n\nOpen the link below to verify your email address.`,
          actionUrl: url,
        });
      },
    },
    user: {
      changeEmail: {
        enabled: true,
        // Spec §4: an unverified address changes at once (and the new one gets a verification
        // mail); without this better-auth 1.7 mails the new address and waits for the link.
        updateEmailWithoutVerification: true,
        sendChangeEmailConfirmation: async ({ user, newEmail, url }) => {
          await mailer.send({
            kind: "change-email",
            to: user.email,
            subject: "Confirm your new email address",
            text: `Hi ${user.name},\n\nYou asked to change your Faultline email to ${newEmail}. Open the link below to confirm; a second link then goes to ${newEmail}, and your email changes once you open it.`,
            actionUrl: url,
          });
        },
      },
      deleteUser: {
        enabled: true,
        deleteTokenExpiresIn: 24 * ONE_HOUR,
        // Again at the moment of deletion: ownership may have changed since the mail was sent.
        beforeDelete: (user) => assertNotSoleOwner(db, user.id),
        sendDeleteAccountVerification: async ({ user, url }) => {
          await mailer.send({
            kind: "delete-account",
            to: user.email,
            subject: "Confirm the deletion of your Faultline account",
            text: `Hi ${user.name},\n\nOpen the link below to delete your account for good. It is valid for 24 hours.`,
            actionUrl: url,
          });
        },
      },
    },
    account: {
      accountLinking: { enabled: true, trustedProviders: trustedProviderIds(env) },
    },
    socialProviders: socialProvidersConfig(env),
    session: {
      expiresIn: 30 * 24 * ONE_HOUR,
      updateAge: 24 * ONE_HOUR,
      freshAge: SESSION_FRESH_AGE,
    },
    hooks: {
      before: authBeforeHook(SESSION_FRESH_AGE, db),
      after: authAfterHook(seatSync && ((organizationId) => seatSync({ organization: { id: organizationId } }))),
    },
    rateLimit: {
      enabled: env.authRateLimit,
      storage: "database",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": { window: 60, max: 5 },
        "/sign-up/email": { window: 60, max: 5 },
        "/request-password-reset": { window: 60, max: 3 },
        "/forget-password": { window: 60, max: 3 },
        "/send-verification-email": { window: 60, max: 3 },
        "/change-password": { window: 60, max: 5 },
        "/delete-user": { window: 60, max: 5 },
      },
    },
    advanced: {
      // better-auth silently disables its Origin/CSRF and callbackURL checks whenever the process
      // has NODE_ENV=test or TEST set. Faultline accepts NODE_ENV=test, so pin them on explicitly:
      // cookie-carrying POSTs from a foreign Origin must be refused in every mode.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      database: { generateId: "uuid" },
      useSecureCookies: appUrl.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    plugins: [
      organization({
        ac,
        roles,
        teams: { enabled: true },
        creatorRole: "owner",
        // Spec §3/§6: organization roles, custom roles with a permission map per organization,
        // managed by whoever holds the `ac` permissions (owners and admins) and checked by the
        // same hasPermission as the built-in roles.
        dynamicAccessControl: { enabled: true, maximumRolesPerOrganization: MAX_CUSTOM_ROLES },
        invitationExpiresIn: 7 * 24 * ONE_HOUR,
        cancelPendingInvitationsOnReInvite: true,
        // Seats follow membership on the hosted deployment (billing/seat-sync.ts).
        organizationHooks: seatSync ? { afterAddMember: seatSync, afterRemoveMember: seatSync, afterAcceptInvitation: seatSync } : undefined,
        sendInvitationEmail: async ({ id, email, organization: org, inviter, role }) => {
          await mailer.send({
            kind: "invitation",
            to: email,
            subject: `${inviter.user.name} invited you to ${org.name} on Faultline`,
            text: `${inviter.user.name} (${inviter.user.email}) invited you to join ${org.name} on Faultline as ${role}.\n\nOpen the link below, sign in or create an account with this email address, and accept the invitation.`,
            actionUrl: `${appUrl}/dashboard/invites?invitationId=${id}`,
          });
        },
      }),
      deviceAuthorization(deviceAuthorizationOptions(appUrl)),
      ...genericOAuthPlugin(env),
      avatarPolicy(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
export type AuthSession = NonNullable<Awaited<ReturnType<Auth["api"]["getSession"]>>>;
