import { CheckoutInput, ListSubscriptionsInput } from "../../shared/billing.inputs";
import { orgProcedure, router } from "../trpc/init";
import * as service from "./billing.service";

/** tRPC twins of the billing REST routes (billing.rest.ts), in the session's active organization. */
export const billingRouter = router({
  plans: orgProcedure.query(({ ctx }) => service.planCatalog(ctx)),
  subscriptions: orgProcedure.input(ListSubscriptionsInput).query(({ ctx, input }) => service.listSubscriptions(ctx, input)),
  usage: orgProcedure.query(({ ctx }) => service.billingUsage(ctx)),
  quota: orgProcedure.query(({ ctx }) => service.quotaState(ctx)),
  checkout: orgProcedure.input(CheckoutInput).mutation(({ ctx, input }) => service.startCheckout(ctx, input)),
  portal: orgProcedure.mutation(({ ctx }) => service.openPortal(ctx)),
});
