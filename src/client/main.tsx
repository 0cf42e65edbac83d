import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { createAppRouter } from "./router";
import { trpc } from "./lib/trpc";
import { ThemeProvider } from "./lib/theme";
import { listenForPreloadErrors } from "./lib/chunk-reload";
import "./styles.css";

listenForPreloadErrors();

const { router, queryClient, trpcClient } = createAppRouter();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <ThemeProvider>
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </trpc.Provider>
    </ThemeProvider>
  </StrictMode>,
);
