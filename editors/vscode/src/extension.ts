/*
 * extension.ts — the VS Code side: commands, the results panel, Problems entries, hovers and the
 * encyclopedia preview. The analysis is the local faultline program's (`--format json`); the
 * mapping of its report is in model.ts.
 */
import * as os from "os";
import * as path from "path";
import * as crypto from "crypto";
import * as vscode from "vscode";
import * as model from "./model";
import { MissingProgramError, OutputTail, runProgram } from "./run";

const TERMINAL_TAIL = 8 * 1024 * 1024; // characters of a terminal's last command kept

let problems: vscode.DiagnosticCollection;
let hovers = new Map<string, Map<number, model.Diagnosis[]>>();
let panel: vscode.WebviewPanel | undefined;
let shown: { report: model.Report; view: model.PanelModel; origin: model.Origin } | undefined;
const terminalOutput = new Map<vscode.Terminal, OutputTail>();

function settings(): model.Settings {
  const c = vscode.workspace.getConfiguration("faultline");
  const trusted = vscode.workspace.isTrusted;
  const program = model.effectiveSetting(c.inspect<string>("path"), trusted, "faultline");
  const kbFolder = model.effectiveSetting(c.inspect<string>("kbFolder"), trusted, "");
  const mask = c.get<string>("mask", "all");
  return {
    program: program.startsWith("~/") ? path.join(os.homedir(), program.slice(2)) : program,
    mask: mask === "secrets" || mask === "none" ? mask : "all",
    kbFolder,
  };
}

async function run(args: string[], cwd: string, input?: string) {
  const s = settings();
  try {
    return await runProgram(s.program, args, cwd, input);
  } catch (e) {
    if (e instanceof MissingProgramError) {
      const choice = await vscode.window.showErrorMessage(model.missingProgramMessage(s.program), "Open Settings");
      if (choice) void vscode.commands.executeCommand("workbench.action.openSettings", "faultline.path");
      return undefined;
    }
    throw e;
  }
}

async function diagnose(inputs: string[], origin: model.Origin, input?: string): Promise<void> {
  const args = model.diagnoseArgs(settings(), inputs);
  const res = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: "faultline: diagnosing" },
    () => run(args, origin.cwd, input));
  if (!res) return;
  if (!model.exitMeansReport(res.code)) {
    void vscode.window.showErrorMessage(`faultline: ${res.stderr.trim() || `exit status ${res.code}`}`);
    return;
  }
  let report: model.Report;
  try {
    report = model.parseReport(res.stdout);
  } catch (e) {
    void vscode.window.showErrorMessage((e as Error).message);
    return;
  }
  show(report, origin);
}

function show(report: model.Report, origin: model.Origin): void {
  const entries = model.toProblems(report, origin);
  problems.clear();
  const byFile = new Map<string, vscode.Diagnostic[]>();
  for (const p of entries) {
    const sev = p.severity === "error" ? vscode.DiagnosticSeverity.Error
      : p.severity === "warning" ? vscode.DiagnosticSeverity.Warning
      : p.severity === "hint" ? vscode.DiagnosticSeverity.Hint : vscode.DiagnosticSeverity.Information;
    const d = new vscode.Diagnostic(new vscode.Range(p.line, 0, p.line, Number.MAX_SAFE_INTEGER), p.message, sev);
    d.source = "faultline";
    d.code = p.code;
    const list = byFile.get(p.file) ?? [];
    list.push(d);
    byFile.set(p.file, list);
  }
  for (const [file, list] of byFile) problems.set(vscode.Uri.file(file), list);
  hovers = model.hoverIndex(entries, report);
  const view = model.toPanelModel(report);
  shown = { report, view, origin };
  if (!panel) {
    panel = vscode.window.createWebviewPanel("faultline.report", "faultline", vscode.ViewColumn.Beside,
      { enableScripts: true, localResourceRoots: [] });
    panel.onDidDispose(() => (panel = undefined));
    panel.webview.onDidReceiveMessage(onPanelMessage);
  }
  panel.title = `faultline: ${view.diagnoses[0]?.id ?? "no failure"}`;
  panel.webview.html = model.renderPanelHtml(view, { nonce: crypto.randomBytes(16).toString("base64"), cspSource: panel.webview.cspSource });
  panel.reveal(vscode.ViewColumn.Beside, true);
}

async function onPanelMessage(m: unknown): Promise<void> {
  if (!shown || !model.isPanelMessage(m, shown.view)) return;
  const d = shown.report.diagnoses[m.diagnosis];
  switch (m.type) {
    case "copy":
      await vscode.env.clipboard.writeText(d.fix);
      void vscode.window.setStatusBarMessage("faultline: fix copied", 3000);
      break;
    case "run": {
      const t = vscode.window.createTerminal({ name: `faultline verify: ${d.id}`, cwd: shown.origin.cwd });
      t.show();
      t.sendText(d.verify, true);
      break;
    }
    case "entry":
      await openEntry(d.id);
      break;
    case "open": {
      const loc = model.locate(d.evidence[m.evidence], shown.origin);
      if (!loc) {
        void vscode.window.showInformationMessage("faultline: this evidence has no place in a file of the workspace");
        return;
      }
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(loc.file));
      const pos = new vscode.Position(loc.line, 0);
      await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), viewColumn: vscode.ViewColumn.One });
      break;
    }
  }
}

async function openEntry(id?: string): Promise<void> {
  if (!id) {
    id = await vscode.window.showInputBox({ prompt: "faultline: entry id (e.g. cuda-oom)" });
    if (!id) return;
  }
  const cwd = workspaceDir();
  const res = await run(model.kbShowArgs(settings(), id), cwd);
  if (!res) return;
  if (res.code !== 0) {
    void vscode.window.showErrorMessage(`faultline: ${res.stderr.trim() || `kb show exit status ${res.code}`}`);
    return;
  }
  const doc = await vscode.workspace.openTextDocument({ language: "markdown", content: res.stdout });
  await vscode.commands.executeCommand("markdown.showPreview", doc.uri);
}

function workspaceDir(): string {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
}

async function diagnoseSelection(): Promise<void> {
  const ed = vscode.window.activeTextEditor;
  if (!ed || ed.selection.isEmpty) {
    void vscode.window.showInformationMessage("faultline: select the log lines or traceback to diagnose");
    return;
  }
  const text = ed.document.getText(ed.selection);
  const file = ed.document.uri.scheme === "file" ? ed.document.uri.fsPath : undefined;
  await diagnose(["-"], { cwd: file ? path.dirname(file) : workspaceDir(), stdinFile: file, stdinLine: ed.selection.start.line }, text);
}

async function diagnoseFile(uri?: vscode.Uri, selected?: vscode.Uri[]): Promise<void> {
  let uris = selected && selected.length ? selected : uri ? [uri] : [];
  if (!uris.length && vscode.window.activeTextEditor?.document.uri.scheme === "file")
    uris = [vscode.window.activeTextEditor.document.uri];
  if (!uris.length) {
    const picked = await vscode.window.showOpenDialog({ canSelectFiles: true, canSelectFolders: true, canSelectMany: true, openLabel: "Diagnose" });
    if (!picked) return;
    uris = picked;
  }
  const files = uris.filter((u) => u.scheme === "file").map((u) => u.fsPath);
  if (!files.length) return;
  const cwd = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(files[0]))?.uri.fsPath ?? path.dirname(files[0]);
  await diagnose(files.map((f) => path.relative(cwd, f) || "."), { cwd });
}

async function diagnoseTerminal(): Promise<void> {
  const t = vscode.window.activeTerminal;
  const tail = t ? terminalOutput.get(t) : undefined;
  const text = tail?.text() ?? "";
  if (text.trim()) {
    await diagnose(["-"], { cwd: workspaceDir() }, text);
    return;
  }
  const why = !t ? "no terminal is active"
    : !t.shellIntegration ? "this terminal has no shell integration, so its output cannot be read"
    : "no command output was seen in this terminal since the extension started";
  const choice = await vscode.window.showInformationMessage(`faultline: ${why}. Diagnose a log file instead?`, "Choose File");
  if (choice) await diagnoseFile();
}

export function activate(ctx: vscode.ExtensionContext): void {
  problems = vscode.languages.createDiagnosticCollection("faultline");
  ctx.subscriptions.push(
    problems,
    vscode.commands.registerCommand("faultline.diagnoseSelection", diagnoseSelection),
    vscode.commands.registerCommand("faultline.diagnoseFile", diagnoseFile),
    vscode.commands.registerCommand("faultline.diagnoseTerminal", diagnoseTerminal),
    vscode.commands.registerCommand("faultline.openEntry", (id?: string) => openEntry(typeof id === "string" ? id : undefined)),
    vscode.languages.registerHoverProvider({ scheme: "file" }, {
      provideHover(doc, pos) {
        const ds = hovers.get(doc.uri.fsPath)?.get(pos.line);
        if (!ds) return undefined;
        const md = new vscode.MarkdownString(model.hoverMarkdown(ds));
        md.isTrusted = { enabledCommands: ["faultline.openEntry"] };
        return new vscode.Hover(md);
      },
    }),
    vscode.window.onDidCloseTerminal((t) => terminalOutput.delete(t)),
  );
  // Shell integration: a command's output can only be read from its start, so every command's
  // output is kept (the last one per terminal) for "Diagnose last terminal output".
  if (vscode.window.onDidStartTerminalShellExecution) {
    ctx.subscriptions.push(vscode.window.onDidStartTerminalShellExecution(async (ev) => {
      const tail = new OutputTail(TERMINAL_TAIL);
      terminalOutput.set(ev.terminal, tail);
      try {
        for await (const data of ev.execution.read()) tail.push(data);
      } catch {
        /* the terminal went away */
      }
    }));
  }
}

export function deactivate(): void {
  panel?.dispose();
}
