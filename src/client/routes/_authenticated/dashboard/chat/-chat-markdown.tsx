import { Link } from "@tanstack/react-router";
import Markdown, { type Components } from "react-markdown";
import { safeHttpUrl } from "@/client/lib/untrusted-text";

/** Links inside the product (issue and exception screens the agent cites) stay in the app. */
const INTERNAL_LINK = /^\/dashboard\/issues\/[0-9a-f-]{36}(\/exceptions\/[0-9a-f-]{36})?\?projectId=[0-9a-f-]{36}$/;

const components: Components = {
  a: ({ href, children }) => {
    if (href && INTERNAL_LINK.test(href)) {
      return (
        <Link to={href} className="font-medium underline underline-offset-2">
          {children}
        </Link>
      );
    }
    const url = safeHttpUrl(href);
    if (!url) return <span>{children}</span>;
    return (
      <a href={url} target="_blank" rel="noopener noreferrer" className="underline underline-offset-2">
        {children}
      </a>
    );
  },
  // No remote images: they would load whatever URL the model (or an event it read) wrote.
  img: ({ alt }) => <span className="text-muted-foreground">[image: {alt || "not shown"}]</span>,
  pre: ({ children }) => <pre className="my-2 overflow-x-auto rounded-md bg-muted p-3 text-xs">{children}</pre>,
  code: ({ children }) => <code className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em]">{children}</code>,
  ul: ({ children }) => <ul className="my-2 list-disc pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="my-2 list-decimal pl-5">{children}</ol>,
  p: ({ children }) => <p className="my-2 leading-relaxed">{children}</p>,
  table: ({ children }) => <table className="my-2 w-full border-collapse text-sm">{children}</table>,
  th: ({ children }) => <th className="border-b px-2 py-1 text-left font-medium">{children}</th>,
  td: ({ children }) => <td className="border-b px-2 py-1">{children}</td>,
};

/**
 * The model's answer as Markdown, safe for untrusted text: raw HTML is not rendered (react-markdown
 * skips it without rehype-raw), images are not loaded, and only http(s) links — opened with
 * rel="noopener noreferrer" — or the product's own issue links are links.
 */
export function ChatMarkdown({ text }: { text: string }) {
  return (
    <div className="text-sm break-words [overflow-wrap:anywhere]">
      <Markdown components={components} skipHtml>
        {text}
      </Markdown>
    </div>
  );
}
