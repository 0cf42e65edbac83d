import { z } from "zod";

/** Plans of the hosted deployment (spec §9). */
export const PLANS = ["free", "plus"] as const;
export type Plan = (typeof PLANS)[number];

/** `?active=true` of the spec's subscriptions call: only subscriptions that grant the plan (active, trialing, past_due). */
export const ListSubscriptionsInput = z.object({
  active: z
    .enum(["true", "false"], { message: "active must be true or false" })
    .transform((value) => value === "true")
    .or(z.boolean())
    .optional(),
});
export type ListSubscriptionsInput = z.input<typeof ListSubscriptionsInput>;

export const CheckoutInput = z.object({ plan: z.literal("plus", { message: "Only the plus plan can be bought" }) });
export type CheckoutInput = z.infer<typeof CheckoutInput>;
