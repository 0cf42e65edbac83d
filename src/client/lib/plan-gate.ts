import { isTrpcError } from "./trpc";

/** The plan gate's answer (server: billing/organization-plan.ts requirePlan): FORBIDDEN with details.reason plan_required. */
export function isPlanRequired(error: unknown): boolean {
  if (isTrpcError(error)) return error.data?.appCode === "FORBIDDEN" && error.data.details?.reason === "plan_required";
  if (error && typeof error === "object" && "details" in error) return (error as { details?: { reason?: string } }).details?.reason === "plan_required";
  return false;
}

/** Where a user without the required plan is sent (spec §6, §8); the plans page is the billing feature's. */
export const PLANS_PAGE = "/plus";
