import { useNavigate } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { MAX_QUESTION_LENGTH } from "@/shared/chat.inputs";
import type { ProjectView } from "@/client/lib/trpc";
import { FormField } from "@/client/components/form-field";
import { Button } from "@/client/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/client/components/ui/card";
import { Input } from "@/client/components/ui/input";
import { Label } from "@/client/components/ui/label";

export const SUGGESTED_QUESTIONS = ["What broke since yesterday?", "Which errors hit the most users this week?", "Explain the newest regression"];

const PRESETS = [
  { id: "24h", label: "24 h", days: 1 },
  { id: "7d", label: "7 d", days: 7 },
  { id: "14d", label: "14 d", days: 14 },
  { id: "30d", label: "30 d", days: 30 },
  { id: "custom", label: "Custom", days: 0 },
] as const;

type PresetId = (typeof PRESETS)[number]["id"];

/** The window of a preset ending now, or the custom dates (whole UTC days). */
function windowOf(preset: PresetId, from: string, to: string): { dateFrom: string; dateTo: string } | null {
  if (preset === "custom") {
    if (!from || !to || from > to) return null;
    return { dateFrom: `${from}T00:00:00.000Z`, dateTo: `${to}T23:59:59.999Z` };
  }
  const days = PRESETS.find((candidate) => candidate.id === preset)!.days;
  const now = new Date();
  return { dateFrom: new Date(now.getTime() - days * 86_400_000).toISOString(), dateTo: now.toISOString() };
}

/** Starts a conversation: the chat screen sends the first question (search param `new`). */
export function NewChatForm({ projects }: { projects: ProjectView[] }) {
  const navigate = useNavigate();
  const [projectId, setProjectId] = useState(projects[0]?.id ?? "");
  const [preset, setPreset] = useState<PresetId>("24h");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [question, setQuestion] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const start = (text: string) => {
    const window = windowOf(preset, from, to);
    if (!window) return setProblem("Choose a start and an end date, the start not after the end.");
    if (!text.trim()) return setProblem("Ask a question to start the chat.");
    if (text.length > MAX_QUESTION_LENGTH) return setProblem(`A message is at most ${MAX_QUESTION_LENGTH} characters.`);
    sessionStorage.setItem("faultline.chat.firstQuestion", text.trim());
    void navigate({ to: "/dashboard/chat/$chatId", params: { chatId: crypto.randomUUID() }, search: { projectId, ...window, new: true } });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    start(question);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>New chat</CardTitle>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={submit} data-testid="new-chat-form">
          <div className="grid gap-2 sm:grid-cols-2">
            <FormField id="chat-project" label="Project" className="gap-1.5">
              <select
                id="chat-project"
                className="h-9 rounded-md border bg-background px-2 text-sm"
                value={projectId}
                onChange={(event) => setProjectId(event.target.value)}
              >
                {projects.map((project) => (
                  <option key={project.id} value={project.id}>
                    {project.name}
                  </option>
                ))}
              </select>
            </FormField>
            <div className="grid gap-1.5">
              <Label>Time window</Label>
              <div className="flex flex-wrap gap-1" role="radiogroup" aria-label="Time window">
                {PRESETS.map((option) => (
                  <Button
                    key={option.id}
                    type="button"
                    size="sm"
                    variant={preset === option.id ? "default" : "outline"}
                    aria-pressed={preset === option.id}
                    onClick={() => setPreset(option.id)}
                  >
                    {option.label}
                  </Button>
                ))}
              </div>
            </div>
          </div>
          {preset === "custom" ? (
            <div className="grid gap-2 sm:grid-cols-2">
              <FormField id="chat-from" label="From" className="gap-1.5">
                <Input id="chat-from" type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
              </FormField>
              <FormField id="chat-to" label="To" className="gap-1.5">
                <Input id="chat-to" type="date" value={to} onChange={(event) => setTo(event.target.value)} />
              </FormField>
            </div>
          ) : null}
          <FormField id="chat-question" label="Question" className="gap-1.5">
            <textarea
              id="chat-question"
              className="min-h-20 rounded-md border bg-background p-2 text-sm"
              value={question}
              maxLength={MAX_QUESTION_LENGTH}
              placeholder="What broke since yesterday?"
              onChange={(event) => setQuestion(event.target.value)}
            />
          </FormField>
          {problem ? <p className="text-sm text-destructive">{problem}</p> : null}
          <div className="flex flex-wrap items-center gap-2">
            <Button type="submit">Start chat</Button>
            {SUGGESTED_QUESTIONS.map((suggestion) => (
              <Button key={suggestion} type="button" variant="outline" size="sm" onClick={() => start(suggestion)}>
                {suggestion}
              </Button>
            ))}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
