import { Link } from "@tanstack/react-router";
import { CreditCardIcon, SparklesIcon } from "lucide-react";
import type { RouterOutputs } from "@/client/lib/trpc";
import { formatDateTime } from "@/client/lib/format";
import { Badge } from "@/client/components/ui/badge";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/client/components/ui/card";

type Subscription = RouterOutputs["billing"]["subscriptions"][number];

const STATUS_LABELS: Record<Subscription["status"], string> = {
  active: "Active",
  trialing: "Trialing",
  past_due: "Past due",
  canceled: "Canceled",
  incomplete: "Incomplete",
  incomplete_expired: "Expired",
  unpaid: "Unpaid",
  paused: "Paused",
};

interface Props {
  plan: "free" | "plus";
  /** The newest subscription, whatever its status (a canceled one still has invoices in the portal). */
  subscription: Subscription | null;
  seats: number;
  canManage: boolean;
  /** Why the plan cannot be changed here, once known (null while loading or when it can). */
  refusal: string | null;
  onManage: () => void;
  managing: boolean;
}

/** The plan, its status with dates and the seats; "Manage billing" opens Stripe's customer portal. */
export function SubscriptionCard({ plan, subscription, seats, canManage, refusal, onManage, managing }: Props) {
  return (
    <Card data-testid="subscription-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <span data-testid="billing-plan">{plan === "plus" ? "Plus" : "Free"}</span> plan
          {subscription ? (
            <Badge variant={subscription.status === "past_due" ? "destructive" : "secondary"} data-testid="billing-status">
              {STATUS_LABELS[subscription.status]}
            </Badge>
          ) : null}
        </CardTitle>
        <CardDescription>
          {subscription ? (
            <>
              <span data-testid="billing-seats">
                {subscription.seats} {subscription.seats === 1 ? "seat" : "seats"}
              </span>{" "}
              (one per member).{" "}
              {subscription.currentPeriodEnd
                ? subscription.cancelAtPeriodEnd
                  ? `Ends on ${formatDateTime(subscription.currentPeriodEnd)}; it will not renew.`
                  : `Renews on ${formatDateTime(subscription.currentPeriodEnd)}.`
                : null}
            </>
          ) : (
            `${seats} ${seats === 1 ? "member" : "members"}. The free plan has a monthly event quota and no AI agent.`
          )}
        </CardDescription>
      </CardHeader>
      {subscription?.currentPeriodStart ? (
        <CardContent className="text-sm text-muted-foreground">Current period since {formatDateTime(subscription.currentPeriodStart)}.</CardContent>
      ) : null}
      <CardFooter className="flex flex-wrap gap-2">
        {subscription && canManage ? (
          <Button data-testid="manage-billing" onClick={onManage} disabled={managing}>
            <CreditCardIcon /> {managing ? "Opening…" : "Manage billing"}
          </Button>
        ) : null}
        {plan === "free" ? (
          <Button asChild variant={canManage ? "default" : "outline"}>
            <Link to="/plus">
              <SparklesIcon /> {canManage ? "Upgrade to Plus" : "See plans"}
            </Link>
          </Button>
        ) : null}
        {refusal ? <p className="text-sm text-muted-foreground">{refusal}: the plan and payment details stay as they are.</p> : null}
      </CardFooter>
    </Card>
  );
}
