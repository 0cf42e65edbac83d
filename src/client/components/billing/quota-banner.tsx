import { Link } from "@tanstack/react-router";
import { AlertTriangleIcon } from "lucide-react";
import { DEPLOYMENT_MODE_SELF_HOSTED } from "@/shared/constants";
import { useAppConfig } from "@/client/lib/config";
import { formatDateTime, formatNumber } from "@/client/lib/format";
import { trpc } from "@/client/lib/trpc";
import { usePermissions } from "@/client/lib/use-permissions";
import { useActiveOrganizationId } from "@/client/lib/use-organization";
import { Alert, AlertDescription, AlertTitle } from "@/client/components/ui/alert";

/** How often an open screen asks again: events keep being refused (or stop being) while it is open. */
const RECHECK_MS = 60_000;

/**
 * Over its monthly quota, the organization's events are refused (429) — shown on every signed-in
 * screen to those who can change the plan (billing:manage: owners and admins), with the numbers
 * and the way to billing (issue 37: over quota, the app said nothing). Billing queries run only on
 * the hosted deployment (spec §6).
 */
export function QuotaBanner() {
  const config = useAppConfig();
  const organizationId = useActiveOrganizationId();
  const { can } = usePermissions();
  const hosted = config.data !== undefined && config.data.deploymentMode !== DEPLOYMENT_MODE_SELF_HOSTED;
  const quota = trpc.billing.quota.useQuery(undefined, {
    enabled: hosted && Boolean(organizationId) && can("billing:manage"),
    refetchInterval: RECHECK_MS,
  });
  if (!quota.data?.refusing) return null;
  const { used, quota: limit, refused, resetsAt } = quota.data;
  return (
    <div className="mx-auto w-full max-w-7xl px-4 pt-4">
      <Alert variant="destructive" data-testid="quota-banner">
        <AlertTriangleIcon />
        <AlertTitle>New events are being refused: the monthly event quota is used up</AlertTitle>
        <AlertDescription>
          <p>
            <span data-testid="quota-banner-numbers">
              {formatNumber(used)} of {formatNumber(limit)} events used this month
            </span>
            {refused > 0 ? `, ${formatNumber(refused)} refused so far` : ""}. SDKs get HTTP 429 until {formatDateTime(resetsAt)}, unless the organization
            upgrades.{" "}
            <Link to="/settings/organization/billing" className="font-medium underline underline-offset-4" data-testid="quota-banner-billing">
              Open billing
            </Link>
          </p>
        </AlertDescription>
      </Alert>
    </div>
  );
}
