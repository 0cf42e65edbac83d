import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorMessage } from "./api-error";

interface Options<TVariables, TData> {
  /** A toast after success; a function may word it from the answer. */
  success?: string | ((data: TData, variables: TVariables) => string);
  /** Queries whose data this change makes stale. */
  invalidate?: QueryKey[];
  onSuccess?: (data: TData, variables: TVariables) => unknown;
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
      if (options.success) toast.success(typeof options.success === "function" ? options.success(data, variables) : options.success);
      await options.onSuccess?.(data, variables);
    },
    onError: (error) => {
      toast.error(errorMessage(error));
    },
  });
}
