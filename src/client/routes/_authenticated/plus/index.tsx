import { createFileRoute, Link } from "@tanstack/react-router";
import { SparklesIcon } from "lucide-react";
import { DEPLOYMENT_MODE_SELF_HOSTED } from "@/shared/constants";
import { useAppConfig } from "@/client/lib/config";
import { trpc } from "@/client/lib/trpc";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { NotFoundView } from "@/client/components/not-found-view";
import { PageHeader } from "@/client/components/page-header";
import { PendingView } from "@/client/components/pending-view";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { PlanCards } from "@/client/components/billing/plan-cards";
import { SelfHostedBillingCard } from "@/client/components/billing/self-hosted-billing-card";
import { UsageMeter } from "@/client/components/billing/usage-meter";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/client/components/ui/card";

export const Route = createFileRoute("/_authenticated/plus/")({
  loader: ({ context }) => context.trpc.config.get.ensureData(),
  component: PlusScreen,
});

/** Spec §2: needs an active organization, otherwise a not-found view of type organization. */
function PlusScreen() {
  const { activeOrganizationId } = Route.useRouteContext();
  const config = useAppConfig();
  if (!activeOrganizationId) {
    return (
      <>
        <PageHeader title="Plans" />
        <NotFoundView type="organization" />
      </>
    );
  }
  if (config.isPending) return <PendingView />;
  if (config.error) return <QueryErrorAlert error={config.error} onRetry={() => void config.refetch()} />;
  if (config.data.deploymentMode === DEPLOYMENT_MODE_SELF_HOSTED) {
    return (
      <>
        <PageHeader title="Plans" />
        <SelfHostedBillingCard />
      </>
    );
  }
  return <HostedPlans />;
}

function HostedPlans() {
  const plans = trpc.billing.plans.useQuery();
  const usage = trpc.billing.usage.useQuery();
  const { can, reason } = usePermissions();
  const canManage = can("billing:manage");
  const utils = trpc.useUtils();
  const checkout = useToastMutation((plan: "plus") => utils.client.billing.checkout.mutate({ plan }), {
    // Off to Stripe's hosted Checkout; it returns to /plus/success.
    onSuccess: ({ url }) => window.location.assign(url),
  });

  if (plans.isPending || usage.isPending) return <PendingView />;
  if (plans.error) return <QueryErrorAlert error={plans.error} onRetry={() => void plans.refetch()} />;
  if (usage.error) return <QueryErrorAlert error={usage.error} onRetry={() => void usage.refetch()} />;
  const current = usage.data.plan;

  return (
    <div className="grid max-w-4xl gap-6 grid-cols-[minmax(0,1fr)]">
      <PageHeader title="Plans" description="Choose what your organization needs. Plus adds the AI agent, a larger event quota and longer retention." />
      <Card>
        <CardHeader>
          <CardTitle data-testid="current-plan">You are on the {current === "plus" ? "Plus" : "Free"} plan</CardTitle>
        </CardHeader>
        <CardContent>
          <UsageMeter usage={usage.data} />
        </CardContent>
      </Card>
      <PlanCards
        plans={plans.data.plans}
        current={current}
        action={(plan) =>
          plan.plan !== "plus" ? null : current === "plus" ? (
            <Button asChild variant="outline">
              <Link to="/settings/organization/billing">Manage billing</Link>
            </Button>
          ) : canManage ? (
            <Button data-testid="upgrade" disabled={checkout.isPending} onClick={() => checkout.mutate("plus")}>
              <SparklesIcon /> {checkout.isPending ? "Opening checkout…" : "Upgrade"}
            </Button>
          ) : (
            <p className="text-sm text-muted-foreground" data-testid="upgrade-read-only">
              {reason("billing:manage")}: ask someone who can to upgrade the organization.
            </p>
          )
        }
      />
    </div>
  );
}
