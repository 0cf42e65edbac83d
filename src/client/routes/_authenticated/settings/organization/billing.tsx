import { createFileRoute } from "@tanstack/react-router";
import { CloudIcon, ServerIcon } from "lucide-react";
import { DEPLOYMENT_MODE_SELF_HOSTED } from "@/shared/constants";
import { useAppConfig } from "@/client/lib/config";
import { PageHeader } from "@/client/components/page-header";
import { PendingView } from "@/client/components/pending-view";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";

export const Route = createFileRoute("/_authenticated/settings/organization/billing")({
  loader: ({ context }) => context.trpc.config.get.ensureData(),
  component: BillingScreen,
});

function BillingScreen() {
  const config = useAppConfig();
  return (
    <div className="grid max-w-3xl gap-6 grid-cols-[minmax(0,1fr)]">
      <PageHeader title="Billing" description="Plans and subscriptions of the organization." />
      {config.isPending ? (
        <PendingView />
      ) : config.error ? (
        <QueryErrorAlert error={config.error} onRetry={() => void config.refetch()} />
      ) : config.data.deploymentMode === DEPLOYMENT_MODE_SELF_HOSTED ? (
        // Billing queries run only on the hosted deployment (spec §6).
        <Card data-testid="billing-self-hosted">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <ServerIcon className="size-4" aria-hidden /> Billing is available on Faultline Cloud
            </CardTitle>
            <CardDescription>
              This installation is self-hosted: there are no plans, subscriptions or usage limits to manage here. Every feature that does not depend on
              Faultline Cloud is available to all organizations.
            </CardDescription>
          </CardHeader>
        </Card>
      ) : (
        <Card data-testid="billing-cloud">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <CloudIcon className="size-4" aria-hidden /> Faultline Cloud
            </CardTitle>
            <CardDescription>Subscriptions of this deployment are managed by its billing service.</CardDescription>
          </CardHeader>
          <CardContent className="text-sm text-muted-foreground">
            This server does not expose a billing service yet, so the organization's plan cannot be shown.
          </CardContent>
        </Card>
      )}
    </div>
  );
}
