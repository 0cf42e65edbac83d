import { CheckIcon, MinusIcon } from "lucide-react";
import type { ReactNode } from "react";
import type { RouterOutputs } from "@/client/lib/trpc";
import { formatNumber } from "@/client/lib/format";
import { Badge } from "@/client/components/ui/badge";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/client/components/ui/card";

type PlanEntry = RouterOutputs["billing"]["plans"]["plans"][number];

const PLAN_NAMES = { free: "Free", plus: "Plus" } as const;

function Feature({ included, children }: { included: boolean; children: ReactNode }) {
  return (
    <li className="flex items-center gap-2">
      {included ? <CheckIcon className="size-4 text-primary" aria-hidden /> : <MinusIcon className="size-4 text-muted-foreground" aria-hidden />}
      <span className={included ? undefined : "text-muted-foreground"}>{children}</span>
    </li>
  );
}

/** The plans side by side: what each includes, with the server's configured limits and price. */
export function PlanCards({ plans, current, action }: { plans: PlanEntry[]; current: "free" | "plus"; action?: (plan: PlanEntry) => ReactNode }) {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {plans.map((plan) => (
        <Card key={plan.plan} data-testid={`plan-${plan.plan}`} className={plan.plan === current ? "border-primary" : undefined}>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              {PLAN_NAMES[plan.plan]} {plan.plan === current ? <Badge variant="secondary">Current plan</Badge> : null}
            </CardTitle>
            <CardDescription>{plan.priceLabel}</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-2 text-sm">
              <Feature included>{plan.monthlyEvents === 0 ? "Unlimited events" : `${formatNumber(plan.monthlyEvents)} events per month`}</Feature>
              <Feature included>{plan.retentionDays} days of retention</Feature>
              <Feature included={plan.aiAgent}>AI agent</Feature>
              <Feature included>{plan.plan === "plus" ? "Billed per seat: one per member" : "Unlimited members"}</Feature>
            </ul>
          </CardContent>
          {action ? <CardFooter>{action(plan)}</CardFooter> : null}
        </Card>
      ))}
    </div>
  );
}
