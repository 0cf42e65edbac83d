import { createFileRoute } from "@tanstack/react-router";
import { AlertTriangleIcon } from "lucide-react";
import { DEPLOYMENT_MODE_SELF_HOSTED } from "@/shared/constants";
import { useAppConfig } from "@/client/lib/config";
import { formatDateTime } from "@/client/lib/format";
import { trpc } from "@/client/lib/trpc";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { NotFoundView } from "@/client/components/not-found-view";
import { PageHeader } from "@/client/components/page-header";
import { PendingView } from "@/client/components/pending-view";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { SelfHostedBillingCard } from "@/client/components/billing/self-hosted-billing-card";
import { UsageMeter } from "@/client/components/billing/usage-meter";
import { Alert, AlertDescription, AlertTitle } from "@/client/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { SubscriptionCard } from "./-components/subscription-card";
import { UsageTable } from "./-components/usage-table";

export const Route = createFileRoute("/_authenticated/settings/organization/billing")({
  loader: ({ context }) => context.trpc.config.get.ensureData(),
  component: BillingScreen,
});

function BillingScreen() {
  const config = useAppConfig();
  const { activeOrganizationId } = Route.useRouteContext();
  return (
    <div className="grid max-w-3xl gap-6 grid-cols-[minmax(0,1fr)]">
      <PageHeader title="Billing" description="Plans and subscriptions of the organization." />
      {config.isPending ? (
        <PendingView />
      ) : config.error ? (
        <QueryErrorAlert error={config.error} onRetry={() => void config.refetch()} />
      ) : config.data.deploymentMode === DEPLOYMENT_MODE_SELF_HOSTED ? (
        // Billing queries run only on the hosted deployment (spec §6).
        <SelfHostedBillingCard />
      ) : !activeOrganizationId ? (
        <NotFoundView type="organization" />
      ) : (
        <HostedBilling />
      )}
    </div>
  );
}

function HostedBilling() {
  const subscriptions = trpc.billing.subscriptions.useQuery({ active: false });
  const usage = trpc.billing.usage.useQuery();
  const { can, refusal } = usePermissions();
  const utils = trpc.useUtils();
  const portal = useToastMutation(() => utils.client.billing.portal.mutate(), {
    // Stripe's customer portal: invoices, payment method, cancellation; it returns here.
    onSuccess: ({ url }) => window.location.assign(url),
  });

  if (subscriptions.isPending || usage.isPending) return <PendingView />;
  if (subscriptions.error) return <QueryErrorAlert error={subscriptions.error} onRetry={() => void subscriptions.refetch()} />;
  if (usage.error) return <QueryErrorAlert error={usage.error} onRetry={() => void usage.refetch()} />;
  const latest = subscriptions.data[0] ?? null;

  return (
    <>
      {latest?.paymentFailedAt && latest.status !== "canceled" ? (
        <Alert variant="destructive" data-testid="payment-failed-banner">
          <AlertTriangleIcon />
          <AlertTitle>A payment failed</AlertTitle>
          <AlertDescription>
            The payment of {formatDateTime(latest.paymentFailedAt)} did not go through. Stripe retries it; update the payment method in Manage billing to keep
            the Plus plan.
          </AlertDescription>
        </Alert>
      ) : null}
      <SubscriptionCard
        plan={usage.data.plan}
        subscription={latest}
        seats={usage.data.seats}
        canManage={can("billing:manage")}
        refusal={refusal("billing:manage")}
        onManage={() => portal.mutate(undefined)}
        managing={portal.isPending}
      />
      <Card>
        <CardHeader>
          <CardTitle>Usage this month</CardTitle>
          <CardDescription>
            Events per project in {usage.data.month} (UTC). Events are kept {usage.data.retentionDays} days on this plan.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <UsageMeter usage={usage.data} />
          <UsageTable projects={usage.data.projects} />
        </CardContent>
      </Card>
    </>
  );
}
