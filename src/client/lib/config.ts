import { trpc } from "./trpc";

/** Installation facts (deployment mode, providers, verification) — fixed while the app runs. */
export function useAppConfig() {
  return trpc.config.get.useQuery(undefined, { staleTime: Number.POSITIVE_INFINITY, gcTime: Number.POSITIVE_INFINITY });
}
