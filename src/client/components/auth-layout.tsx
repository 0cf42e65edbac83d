import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "./ui/card";
import { Logo } from "./logo";
import { ThemeToggle } from "./theme-toggle";
import { useDocumentTitle } from "@/client/lib/use-document-title";

interface Props {
  title: string;
  description?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
}

/** The centred card every signed-out screen (login, signup, password reset…) sits in. */
export function AuthLayout({ title, description, footer, children }: Props) {
  useDocumentTitle(title);
  return (
    <div className="flex min-h-svh flex-col bg-muted/40">
      <header className="flex items-center justify-between px-6 py-4">
        <Logo />
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center">
        <Card className="w-full max-w-md">
          <CardHeader>
            <CardTitle className="text-xl">
              <h1>{title}</h1>
            </CardTitle>
            {description ? <CardDescription>{description}</CardDescription> : null}
          </CardHeader>
          <CardContent className="grid gap-4">{children}</CardContent>
          {footer ? <CardFooter className="justify-center text-sm text-muted-foreground">{footer}</CardFooter> : null}
        </Card>
      </main>
    </div>
  );
}
