import { trpc } from "@/client/lib/trpc";
import { QueryErrorAlert } from "@/client/components/query-error-alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Skeleton } from "@/client/components/ui/skeleton";

/** Tokens the AI agent used per UTC day (last 30 days) against the daily budget. */
export function AiUsageCard() {
  const usage = trpc.agent.usage.useQuery(undefined, { staleTime: 0 });
  const budget = usage.data?.dailyTokenBudget ?? 0;
  return (
    <Card data-testid="ai-usage-card">
      <CardHeader>
        <CardTitle>AI agent usage</CardTitle>
        <CardDescription>
          Tokens per UTC day as the model provider reported them. {budget > 0 ? `Daily budget: ${budget.toLocaleString()} tokens.` : "No daily budget is set."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {usage.isPending ? (
          <Skeleton className="h-16" />
        ) : usage.error ? (
          <QueryErrorAlert error={usage.error} onRetry={() => void usage.refetch()} title="Could not load the usage" />
        ) : usage.data.days.length === 0 ? (
          <p className="text-sm text-muted-foreground">The agent has not been used in the last 30 days.</p>
        ) : (
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-muted-foreground">
                <th className="py-1 font-medium">Day</th>
                <th className="py-1 text-right font-medium">Input</th>
                <th className="py-1 text-right font-medium">Output</th>
                <th className="py-1 text-right font-medium">Total</th>
              </tr>
            </thead>
            <tbody>
              {usage.data.days.map((day) => (
                <tr key={day.day} className="border-t">
                  <td className="py-1">{day.day}</td>
                  <td className="py-1 text-right tabular-nums">{day.inputTokens.toLocaleString()}</td>
                  <td className="py-1 text-right tabular-nums">{day.outputTokens.toLocaleString()}</td>
                  <td className="py-1 text-right tabular-nums">
                    {(day.inputTokens + day.outputTokens).toLocaleString()}
                    {budget > 0 ? ` (${Math.round(((day.inputTokens + day.outputTokens) / budget) * 100)}%)` : ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}
