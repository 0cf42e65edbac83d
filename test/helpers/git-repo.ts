import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A git repository made in the test: commits with known authors touching known files; its remote is only a name (nothing is fetched). */
export class GitRepo {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.git("init", "-q", "-b", "main");
    this.git("config", "user.name", "Ada Lovelace");
    this.git("config", "user.email", "ada@example.com");
    this.git("config", "commit.gpgsign", "false");
    this.git("remote", "add", "origin", "https://github.com/acme/web-shop.git");
    // sentry-cli's HOME lives in the work tree (the helper's layout): not part of the history.
    writeFileSync(path.join(dir, ".git/info/exclude"), "home/\n");
  }

  git(...args: string[]) {
    return execFileSync("git", args, { cwd: this.dir, encoding: "utf8", env: { PATH: process.env.PATH, HOME: this.dir, GIT_CONFIG_NOSYSTEM: "1" } }).trim();
  }

  commit(message: string, files: Record<string, string | null>, author?: string) {
    for (const [name, content] of Object.entries(files)) {
      if (content === null) this.git("rm", "-q", name);
      else {
        mkdirSync(path.dirname(path.join(this.dir, name)), { recursive: true });
        writeFileSync(path.join(this.dir, name), content);
        this.git("add", name);
      }
    }
    this.git("commit", "-q", "-m", message, ...(author ? ["--author", author] : []));
    return this.git("rev-parse", "HEAD");
  }
}
