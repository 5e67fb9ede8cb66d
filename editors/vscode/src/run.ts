/*
 * run.ts — running the local faultline program (never anything over the network), and keeping
 * the tail of a terminal's output. No `vscode` import: node's test runner runs these too.
 */
import { spawn } from "child_process";

export class MissingProgramError extends Error {
  constructor(readonly program: string) {
    super(`program not found: ${program}`);
  }
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/* Runs program with args in cwd, writing `input` (if any) to its standard input. */
export function runProgram(program: string, args: string[], cwd: string, input?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(program, args, { cwd, stdio: ["pipe", "pipe", "pipe"], shell: false, windowsHide: true });
    } catch (e) {
      reject((e as NodeJS.ErrnoException).code === "ENOENT" ? new MissingProgramError(program) : e);
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e: NodeJS.ErrnoException) =>
      reject(e.code === "ENOENT" || e.code === "EACCES" ? new MissingProgramError(program) : e));
    child.on("close", (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
    child.stdin.on("error", () => undefined); // the program may exit before reading everything
    child.stdin.end(input ?? "");
  });
}

/* The last `limit` characters of a stream of chunks: a terminal's most recent command output. */
export class OutputTail {
  private chunks: string[] = [];
  private size = 0;
  constructor(readonly limit: number) {}
  push(s: string): void {
    this.chunks.push(s);
    this.size += s.length;
    // whole chunks go while what is left still fills the limit; then the first one is cut
    while (this.chunks.length > 1 && this.size - this.chunks[0].length >= this.limit)
      this.size -= this.chunks.shift()!.length;
    if (this.size > this.limit) {
      this.chunks[0] = this.chunks[0].slice(this.size - this.limit);
      this.size = this.limit;
    }
  }
  text(): string {
    return this.chunks.join("");
  }
}
