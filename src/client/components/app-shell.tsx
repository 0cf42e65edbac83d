import type { ReactNode } from "react";
import { AppHeader } from "./app-header";
import { QuotaBanner } from "./billing/quota-banner";

/** Header and content frame of the signed-in screens. */
export function AppShell({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-svh flex-col">
      <AppHeader />
      <QuotaBanner />
      <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:py-8">{children}</main>
    </div>
  );
}
