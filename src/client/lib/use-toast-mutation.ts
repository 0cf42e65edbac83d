import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { toast } from "./toast";
import { errorMessage } from "./api-error";

/** A success toast's words; an answer that is only partly good news says which toast it is. */
export type Notice = string | { kind: "info" | "error"; message: string };

interface Options<TVariables, TData> {
  /** A toast after success; a function may word it from the answer. */
  success?: Notice | ((data: TData, variables: TVariables) => Notice);
  /** Queries whose data this change makes stale. */
  invalidate?: QueryKey[];
  /** Brings cached data up to date before the toast, so the screen already shows what it announces. */
  refresh?: (data: TData, variables: TVariables) => unknown;
  /** Runs after the toast (close a dialog, navigate). */
  onSuccess?: (data: TData, variables: TVariables) => unknown;
  /** For a form that shows the server's refusal on its own error line instead of in a toast. */
  onError?: (message: string) => void;
}

function show(notice: Notice) {
  if (typeof notice === "string") toast.success(notice);
  else if (notice.kind === "info") toast.info(notice.message);
  else toast.error(notice.message);
}

/**
 * A mutation over an auth-service or tRPC call that toasts the outcome. Server errors are shown
 * in the server's words: the server is the one that enforces roles, so its refusal is the truth.
 */
export function useToastMutation<TVariables, TData>(mutationFn: (variables: TVariables) => Promise<TData>, options: Options<TVariables, TData> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (data, variables) => {
      await Promise.all((options.invalidate ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      await options.refresh?.(data, variables);
      if (options.success) show(typeof options.success === "function" ? options.success(data, variables) : options.success);
      await options.onSuccess?.(data, variables);
    },
    onError: (error) => {
      if (options.onError) options.onError(errorMessage(error));
      else toast.error(errorMessage(error));
    },
  });
}
