import { useState } from "react";
import { createFileRoute, Link } from "@tanstack/react-router";
import { ShieldIcon } from "lucide-react";
import type { IntegrationView } from "@/shared/waf.views";
import { trpc } from "@/client/lib/trpc";
import { usePermissions } from "@/client/lib/use-permissions";
import { useToastMutation } from "@/client/lib/use-toast-mutation";
import { ConfirmDialog } from "@/client/components/confirm-dialog";
import { NotFoundView } from "@/client/components/not-found-view";
import { PageHeader } from "@/client/components/page-header";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { RelativeTime } from "@/client/components/relative-time";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";
import { WafConnectDrawer } from "./-waf-connect-drawer";

export const Route = createFileRoute("/_authenticated/dashboard/integrations/")({
  component: IntegrationsScreen,
});

/** Integrations Faultline does not offer yet: shown as such, never as a button that does nothing. */
const COMING_SOON = [
  { name: "Cloudflare WAF", description: "Block a client at the edge from the exception it caused." },
  { name: "Slack", description: "Issue alerts and triage from a channel." },
];

const STATUS_LABEL: Record<IntegrationView["status"], string> = { not_connected: "Not connected", connected: "Connected", failing: "Failing" };

function IntegrationsScreen() {
  const { activeOrganizationId } = Route.useRouteContext();
  return (
    <>
      <PageHeader title="Integrations" description="Connect the services Faultline works with." />
      {activeOrganizationId ? <IntegrationCards /> : <NotFoundView type="organization" />}
    </>
  );
}

function IntegrationCards() {
  const list = trpc.integration.list.useQuery();
  const { can, refusal } = usePermissions();
  const setup = trpc.waf.setup.useQuery();
  const utils = trpc.useUtils();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const disconnect = useToastMutation(() => utils.client.waf.disconnect.mutate(), {
    success: "AWS WAF disconnected; its credentials were deleted",
    onSuccess: () => Promise.all([utils.waf.invalidate(), utils.integration.invalidate()]),
  });

  if (list.isPending || setup.isPending) return <Skeleton className="h-48 rounded-xl" />;
  if (list.error || setup.error)
    return <QueryErrorAlert error={list.error ?? setup.error} onRetry={() => void Promise.all([list.refetch(), setup.refetch()])} />;
  const waf = list.data.find((integration) => integration.id === "aws-waf")!;
  const canManage = can("integration:connect");

  return (
    <div className="grid gap-4 md:grid-cols-2" data-testid="integration-cards">
      <Card data-testid="integration-aws-waf" data-status={waf.status}>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <ShieldIcon className="size-5" /> AWS WAF
            <Badge variant={waf.status === "failing" ? "destructive" : waf.status === "connected" ? "default" : "secondary"} data-testid="integration-status">
              {STATUS_LABEL[waf.status]}
            </Badge>
          </CardTitle>
          <CardDescription>Block the client behind an error in your AWS WAF IP sets, from the exception it caused.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-1 text-sm">
          {waf.connectedAt ? (
            <span className="text-muted-foreground">
              Connected <RelativeTime date={waf.connectedAt} />
              {setup.data.connection ? ` · ${setup.data.connection.scope} ${setup.data.connection.region}` : null}
            </span>
          ) : null}
          {waf.lastError ? (
            <span className="text-destructive" data-testid="integration-last-error">
              {waf.lastError}
            </span>
          ) : null}
          {refusal("integration:connect") ? <span className="text-muted-foreground">{refusal("integration:connect")}.</span> : null}
        </CardContent>
        <CardFooter className="flex flex-wrap gap-2">
          {waf.status === "not_connected" ? (
            canManage ? (
              <Button onClick={() => setDrawerOpen(true)} data-testid="waf-connect">
                Connect
              </Button>
            ) : null
          ) : (
            <>
              <Button asChild data-testid="waf-open">
                <Link to="/dashboard/integrations/aws/waf">Open</Link>
              </Button>
              {canManage ? (
                <>
                  <Button variant="outline" onClick={() => setDrawerOpen(true)} data-testid="waf-reconnect">
                    Reconnect
                  </Button>
                  <ConfirmDialog
                    trigger={
                      <Button variant="ghost" data-testid="waf-disconnect">
                        Disconnect
                      </Button>
                    }
                    title="Disconnect AWS WAF?"
                    description="The stored credentials are deleted. Addresses already blocked stay in your IP sets; the block history stays in Faultline."
                    confirmLabel="Disconnect"
                    destructive
                    onConfirm={() => disconnect.mutateAsync(undefined)}
                  />
                </>
              ) : null}
            </>
          )}
        </CardFooter>
      </Card>
      {COMING_SOON.map((item) => (
        <Card key={item.name} className="opacity-70" data-testid="integration-coming-soon">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              {item.name} <Badge variant="outline">Coming soon</Badge>
            </CardTitle>
            <CardDescription>{item.description}</CardDescription>
          </CardHeader>
        </Card>
      ))}
      {drawerOpen ? <WafConnectDrawer open={drawerOpen} onOpenChange={setDrawerOpen} setup={setup.data} /> : null}
    </div>
  );
}
