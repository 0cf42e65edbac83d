import { createRouter } from "@tanstack/react-router";
import { ROUTER_PENDING_MIN_MS, ROUTER_PENDING_MS, ROUTER_PRELOAD_DELAY_MS, ROUTER_PRELOAD_STALE_MS } from "@/shared/constants";
import { routeTree } from "./routeTree.gen";
import { createQueryClient } from "./lib/query-client";
import { createTrpcClient, createTrpcUtils } from "./lib/trpc";
import { clearSessionData, SESSION_QUERY_KEY } from "./lib/session";
import { clearChunkReloadFlag } from "./lib/chunk-reload";
import { ErrorView } from "./components/error-view";
import { NotFoundView } from "./components/not-found-view";
import { PendingView } from "./components/pending-view";

export function createAppRouter() {
  const queryClient = createQueryClient(() => {
    // The server no longer accepts this session (revoked or expired elsewhere). Forget it once and
    // let the authenticated layout send the user to login.
    if (!queryClient.getQueryData(SESSION_QUERY_KEY)) return;
    clearSessionData(queryClient);
    void router.invalidate();
  });
  const trpcClient = createTrpcClient();
  const trpcUtils = createTrpcUtils(queryClient, trpcClient);

  const router = createRouter({
    routeTree,
    context: { queryClient, trpc: trpcUtils },
    defaultPreload: "intent",
    defaultPreloadDelay: ROUTER_PRELOAD_DELAY_MS,
    defaultPendingMs: ROUTER_PENDING_MS,
    defaultPendingMinMs: ROUTER_PENDING_MIN_MS,
    defaultPreloadStaleTime: ROUTER_PRELOAD_STALE_MS,
    // Scroll positions are saved per location. This router version saves them on every scroll
    // event and has no throttle option, so SCROLL_RESTORATION_THROTTLE_MS cannot be applied.
    scrollRestoration: true,
    defaultErrorComponent: ErrorView,
    defaultNotFoundComponent: () => <NotFoundView />,
    defaultPendingComponent: PendingView,
  });

  router.subscribe("onResolved", async () => {
    // A failed screen import does not fail the navigation (the lazy component keeps the error and
    // throws it at render), so match statuses cannot tell. Wait for the screen modules instead: a
    // lazy component drops its `preload` once its module loaded. Only then may a later failed
    // import reload the page again; if this check ever stops matching, the page simply reloads at
    // most once per session.
    const routes = router.state.matches.map((match) => router.routesById[match.routeId]);
    await Promise.allSettled(routes.map((route) => router.loadRouteChunk(route)));
    const allLoaded = routes.every((route) => typeof (route.options.component as { preload?: unknown } | undefined)?.preload !== "function");
    if (allLoaded) clearChunkReloadFlag();
  });

  return { router, queryClient, trpcClient };
}

export type AppRouter = ReturnType<typeof createAppRouter>["router"];

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouter;
  }
}
