import { publicProviders } from "../auth/social-providers";
import { publicProcedure, router } from "../trpc/init";

/** What the client needs to know about this installation before anyone signs in. */
export const configRouter = router({
  get: publicProcedure.query(({ ctx }) => ({
    deploymentMode: ctx.env.DEPLOYMENT_MODE,
    requireEmailVerification: ctx.env.REQUIRE_EMAIL_VERIFICATION,
    socialProviders: publicProviders(ctx.env),
    devOutbox: ctx.env.devOutbox && !ctx.env.SMTP_URL,
    /** null: the client's built-in /privacy page. */
    privacyPolicyUrl: ctx.env.PRIVACY_POLICY_URL ?? null,
  })),
});
