import { ServerIcon } from "lucide-react";
import { Card, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";

/** Billing queries run only on the hosted deployment (spec §6): self-hosted screens say so and ask nothing. */
export function SelfHostedBillingCard() {
  return (
    <Card data-testid="billing-self-hosted">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ServerIcon className="size-4" aria-hidden /> Billing is available on Faultline Cloud
        </CardTitle>
        <CardDescription>
          This installation is self-hosted: there are no plans, subscriptions or usage limits to manage here. Every feature that does not depend on Faultline
          Cloud is available to all organizations.
        </CardDescription>
      </CardHeader>
    </Card>
  );
}
