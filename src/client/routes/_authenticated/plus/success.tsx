import { createFileRoute, Link } from "@tanstack/react-router";
import { CheckCircle2Icon, Loader2Icon } from "lucide-react";
import { useEffect, useState } from "react";
import { trpc } from "@/client/lib/trpc";
import { PageHeader } from "@/client/components/page-header";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";

/** Stripe's webhook may land after the browser returns: poll this long before saying it is late. */
const POLL_MS = 1_000;
const GIVE_UP_MS = 30_000;

export const Route = createFileRoute("/_authenticated/plus/success")({
  component: UpgradeSuccessScreen,
});

function UpgradeSuccessScreen() {
  const [deadline, setDeadline] = useState(() => Date.now() + GIVE_UP_MS);
  const [late, setLate] = useState(false);
  const subscriptions = trpc.billing.subscriptions.useQuery(
    { active: true },
    { refetchInterval: (query) => (query.state.data?.some((subscription) => subscription.plan === "plus") || late ? false : POLL_MS) },
  );
  const active = subscriptions.data?.find((subscription) => subscription.plan === "plus");
  useEffect(() => {
    if (active) return;
    const timer = setTimeout(() => setLate(true), Math.max(0, deadline - Date.now()));
    return () => clearTimeout(timer);
  }, [active, deadline]);

  return (
    <div className="grid max-w-2xl gap-6 grid-cols-[minmax(0,1fr)]">
      <PageHeader title="Upgrade" />
      {subscriptions.error ? (
        <QueryErrorAlert error={subscriptions.error} onRetry={() => void subscriptions.refetch()} />
      ) : active ? (
        <Card data-testid="upgrade-confirmed">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <CheckCircle2Icon className="size-5 text-primary" aria-hidden /> Welcome to Plus
            </CardTitle>
            <CardDescription>
              Your organization's subscription is active with {active.seats} {active.seats === 1 ? "seat" : "seats"}. The AI agent, the larger event quota and
              longer retention are available now.
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-wrap gap-2">
            <Button asChild>
              <a href="/dashboard/chat">Open the AI agent</a>
            </Button>
            <Button asChild variant="outline">
              <Link to="/settings/organization/billing">See billing</Link>
            </Button>
          </CardContent>
        </Card>
      ) : late ? (
        <Card data-testid="upgrade-late">
          <CardHeader>
            <CardTitle>Payment received, confirmation pending</CardTitle>
            <CardDescription>
              Stripe has not confirmed the subscription yet. This usually takes a few seconds; the plan switches to Plus as soon as it does.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button
              variant="outline"
              onClick={() => {
                setLate(false);
                setDeadline(Date.now() + GIVE_UP_MS);
                void subscriptions.refetch();
              }}
            >
              Check again
            </Button>
          </CardContent>
        </Card>
      ) : (
        <Card data-testid="upgrade-waiting">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Loader2Icon className="size-5 animate-spin" aria-hidden /> Confirming your subscription…
            </CardTitle>
            <CardDescription>Thanks for upgrading. This page updates once Stripe confirms the payment.</CardDescription>
          </CardHeader>
        </Card>
      )}
    </div>
  );
}
