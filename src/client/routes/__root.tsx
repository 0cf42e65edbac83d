import { lazy, Suspense } from "react";
import { createRootRouteWithContext, Outlet } from "@tanstack/react-router";
import type { QueryClient } from "@tanstack/react-query";
import type { TrpcUtils } from "@/client/lib/trpc";
import { sessionQueryOptions } from "@/client/lib/session";
import { useToasterWanted } from "@/client/lib/toast";
import { ErrorView } from "@/client/components/error-view";
import { NotFoundView } from "@/client/components/not-found-view";

export interface RouterContext {
  queryClient: QueryClient;
  trpc: TrpcUtils;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  // The session is read once and cached; every route below gets it from the context.
  beforeLoad: async ({ context }) => ({ session: await context.queryClient.ensureQueryData(sessionQueryOptions()) }),
  component: RootLayout,
  notFoundComponent: () => <NotFoundView />,
  errorComponent: ErrorView,
});

// Loaded with the first toast (lib/toast.ts): most pages never show one.
const Toaster = lazy(() => import("@/client/components/ui/sonner").then((module) => ({ default: module.Toaster })));

function RootLayout() {
  const toasterWanted = useToasterWanted();
  return (
    <>
      <Outlet />
      {toasterWanted && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </>
  );
}
