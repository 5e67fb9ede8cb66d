/*
 * model.ts — the pure logic of the extension: faultline's JSON report (the contract of
 * `faultline diagnose --format json`) mapped to what the editor shows. No `vscode` import here,
 * so that node's test runner checks it against real reports.
 */
import * as path from "path";

/* ---------------------------------------------------------------- the report (JSON contract) */

export interface Evidence {
  source: string;
  line: number;
  rank: number | null;
  text: string;
}
export interface Collateral {
  id: string;
  ranks: number[];
  count?: number;
}
export interface Diagnosis {
  id: string;
  title: string;
  category: string;
  severity: string;
  confidence: number;
  initiating_rank: number | null;
  initiating_host: string | null;
  first_seen: string | null;
  collateral: Collateral[];
  evidence: Evidence[];
  evidence_total?: number;
  root_cause: string;
  fix: string;
  verify: string;
  references: string[];
  /* Not matched: the id of the diagnosis whose lines this failure can also explain (the
   * knowledge base's `differential`); null (absent from the reports of older programs) when the
   * diagnosis matched lines of its own. */
  differential_of?: string | null;
}
export interface Report {
  version: string;
  input: { sources: number; bytes: number; lines: number; ranks: number[]; errors?: unknown[] };
  diagnoses: Diagnosis[];
  facts: Record<string, string>;
  note?: string;
}

/* Parses the program's standard output; throws an Error that says what is wrong. */
export function parseReport(stdout: string): Report {
  let r: unknown;
  try {
    r = JSON.parse(stdout);
  } catch (e) {
    throw new Error(`faultline printed no JSON report (${(e as Error).message})`);
  }
  const o = r as Report;
  if (typeof o !== "object" || o === null || !Array.isArray(o.diagnoses) || typeof o.input !== "object" || o.input === null)
    throw new Error("faultline's output is not a report (no diagnoses or input)");
  return o;
}

/* ---------------------------------------------------------------- settings and the command line */

export type MaskMode = "all" | "secrets" | "none";

export interface Settings {
  program: string; // the faultline program (a path, or a name looked up on PATH)
  mask: MaskMode;
  kbFolder: string; // "" for none
}

/* A setting as VS Code's WorkspaceConfiguration.inspect() gives it. */
export interface Inspected<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/* The value of a setting. In an untrusted workspace the workspace's own values are ignored for
 * the settings that name a program to run or a folder to read: only the user's setting counts. */
export function effectiveSetting<T>(i: Inspected<T> | undefined, trusted: boolean, fallback: T): T {
  if (!i) return fallback;
  const pick = trusted ? [i.workspaceFolderValue, i.workspaceValue, i.globalValue] : [i.globalValue];
  for (const v of pick) if (v !== undefined && v !== null && v !== "") return v;
  return i.defaultValue !== undefined && i.defaultValue !== "" ? i.defaultValue : fallback;
}

/* A path the program could take for an option: "./-x" for "-x" ("-" itself is standard input). */
function operand(p: string): string {
  return p !== "-" && p.startsWith("-") ? "./" + p : p;
}

/* The arguments of `faultline diagnose` for these inputs ("-" reads standard input). */
export function diagnoseArgs(s: Settings, inputs: string[]): string[] {
  const args = ["diagnose", "--format", "json"];
  if (s.mask === "none") args.push("--no-mask");
  else args.push("--mask", s.mask);
  if (s.kbFolder) args.push("--kb", s.kbFolder);
  return args.concat(inputs.map(operand));
}

export function kbShowArgs(s: Settings, id: string): string[] {
  const args = ["kb", "show", "--format", "markdown"];
  if (s.kbFolder) args.push("--kb", s.kbFolder);
  args.push(operand(id));
  return args;
}

/* Exit status of diagnose: 0 no known failure, 1 at least one diagnosis, 2 usage/input error. */
export function exitMeansReport(code: number | null): boolean {
  return code === 0 || code === 1;
}

export function missingProgramMessage(program: string): string {
  return (
    `faultline: the program "${program}" was not found. Build it from a faultline checkout ` +
    "(scripts/install-deps.sh && cmake -S . -B build -G Ninja && cmake --build build) and set " +
    '"faultline.path" to its build/faultline, or put faultline on PATH.'
  );
}

/* ---------------------------------------------------------------- the panel */

export interface PanelDiagnosis {
  id: string;
  title: string;
  severity: string;
  confidence: string; // "81%"
  started: string; // "rank 3 on host-1 at 2026-05-01T12:02:05.448"
  rootCause: string;
  fix: string;
  verify: string;
  differentialOf: string; // "" for a diagnosis that matched; else the id it is a differential of
  collateral: { id: string; ranks: string; count: number }[];
  evidence: { label: string; text: string; index: number }[];
  references: string[];
}
export interface PanelModel {
  headline: string;
  subline: string; // what was read
  note: string;
  diagnoses: PanelDiagnosis[];
}

/* "0-2,4-7" for [0,1,2,4,5,6,7] */
export function rankRanges(ranks: number[]): string {
  const r = [...new Set(ranks)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < r.length; ) {
    let j = i;
    while (j + 1 < r.length && r[j + 1] === r[j] + 1) j++;
    out.push(j > i ? `${r[i]}-${r[j]}` : `${r[i]}`);
    i = j + 1;
  }
  return out.join(",");
}

function known(rank: number | null | undefined): rank is number {
  return rank !== null && rank !== undefined;
}

function started(d: Diagnosis): string {
  const parts = [known(d.initiating_rank) ? `rank ${d.initiating_rank}` : "rank unknown"];
  if (d.initiating_host) parts.push(`on ${d.initiating_host}`);
  if (d.first_seen) parts.push(`at ${d.first_seen}`);
  return parts.join(" ");
}

export function headline(r: Report): string {
  const d = r.diagnoses[0];
  if (!d) return "No known failure found";
  return known(d.initiating_rank) ? `${d.title} — started on rank ${d.initiating_rank}` : d.title;
}

export function evidenceLabel(e: Evidence): string {
  const where = e.source === "-" ? "input" : e.source;
  return `${where}:${e.line}${known(e.rank) ? ` (rank ${e.rank})` : ""}`;
}

export function toPanelModel(r: Report): PanelModel {
  const inp = r.input;
  const ranks = inp.ranks && inp.ranks.length ? `, ranks ${rankRanges(inp.ranks)}` : "";
  return {
    headline: headline(r),
    subline: `${inp.sources} source(s), ${inp.lines} lines, ${inp.bytes} bytes${ranks} — ${r.version}`,
    note: r.note ?? "",
    diagnoses: r.diagnoses.map((d) => ({
      id: d.id,
      title: d.title,
      severity: d.severity,
      confidence: `${Math.round((d.confidence ?? 0) * 100)}%`,
      started: started(d),
      rootCause: d.root_cause ?? "",
      fix: d.fix ?? "",
      verify: d.verify ?? "",
      differentialOf: d.differential_of ?? "",
      collateral: (d.collateral ?? []).map((c) => ({
        id: c.id,
        ranks: rankRanges(c.ranks ?? []),
        count: c.count ?? (c.ranks ?? []).length,
      })),
      evidence: (d.evidence ?? []).map((e, index) => ({ label: evidenceLabel(e), text: e.text, index })),
      references: d.references ?? [],
    })),
  };
}

/* ---------------------------------------------------------------- Problems entries and hovers */

export type Severity = "error" | "warning" | "information" | "hint";

export function severityOf(d: Diagnosis): Severity {
  switch (d.severity) {
    case "critical":
    case "high":
      return "error";
    case "medium":
      return "warning";
    default:
      return "information";
  }
}

/* Where the report's lines are: the program ran in `cwd`; a source "-" is the text given on
 * standard input, which came from `stdinFile` starting at its line `stdinLine` (0-based). */
export interface Origin {
  cwd: string;
  stdinFile?: string;
  stdinLine?: number;
}

export interface Location {
  file: string; // absolute path
  line: number; // 0-based
}

export function locate(e: Evidence, o: Origin): Location | null {
  if (!e.line || e.line < 1) return null;
  if (e.source === "-") return o.stdinFile ? { file: o.stdinFile, line: (o.stdinLine ?? 0) + e.line - 1 } : null;
  if (!e.source || e.source.startsWith("<")) return null;
  return { file: path.resolve(o.cwd, e.source), line: e.line - 1 };
}

export interface ProblemEntry extends Location {
  severity: Severity;
  message: string;
  code: string; // the entry id
  diagnosisIndex: number;
}

/* Every evidence line with a place in a file; the first diagnosis's by its severity, the
 * others' as warnings. A differential has no lines of its own: it is a hint on the lines of the
 * diagnosis it is an alternative reading of, never a problem of its own. */
export function toProblems(r: Report, o: Origin): ProblemEntry[] {
  const out: ProblemEntry[] = [];
  r.diagnoses.forEach((d, di) => {
    if (d.differential_of) {
      const of = r.diagnoses.find((x) => x.id === d.differential_of && !x.differential_of);
      for (const e of of?.evidence ?? []) {
        const loc = locate(e, o);
        if (!loc) continue;
        out.push({
          ...loc,
          severity: "hint",
          code: d.id,
          diagnosisIndex: di,
          message: `Not matched, also consider ${d.title}: what this line can also mean when its own lines are missing`,
        });
      }
      return;
    }
    for (const e of d.evidence ?? []) {
      const loc = locate(e, o);
      if (!loc) continue;
      const rank = known(e.rank) ? ` on rank ${e.rank}` : "";
      const role = di === 0 ? "" : " (secondary diagnosis)";
      out.push({
        ...loc,
        severity: di === 0 ? severityOf(d) : "warning",
        code: d.id,
        diagnosisIndex: di,
        message: `${d.title}${rank}${role}: ${e.text}`,
      });
    }
  });
  return out;
}

/* file -> line -> the diagnoses whose evidence is there, for hovers */
export function hoverIndex(problems: ProblemEntry[], r: Report): Map<string, Map<number, Diagnosis[]>> {
  const idx = new Map<string, Map<number, Diagnosis[]>>();
  for (const p of problems) {
    let lines = idx.get(p.file);
    if (!lines) idx.set(p.file, (lines = new Map()));
    const list = lines.get(p.line) ?? [];
    const d = r.diagnoses[p.diagnosisIndex];
    if (!list.includes(d)) list.push(d);
    lines.set(p.line, list);
  }
  return idx;
}

function mdEscape(s: string): string {
  return s.replace(/[\\`*_{}\[\]()#+!|<>]/g, (c) => "\\" + c);
}

/* The Markdown of a hover on a matched line; its link runs faultline.openEntry with the id. */
export function hoverMarkdown(ds: Diagnosis[]): string {
  return ds
    .map((d) => {
      const args = encodeURIComponent(JSON.stringify([d.id]));
      const rank = known(d.initiating_rank) ? `, started on rank ${d.initiating_rank}` : "";
      const head = d.differential_of
        ? `**faultline, not matched: also consider ${mdEscape(d.title)}** (\`${d.id}\`): what the lines of ` +
          `\`${d.differential_of}\` can also mean when its own lines are missing; its Verify tells the two apart`
        : `**faultline: ${mdEscape(d.title)}** (\`${d.id}\`, ${d.severity}${rank})`;
      return (
        `${head}\n\n` +
        `${mdEscape(d.root_cause ?? "")}\n\n[Open encyclopedia entry](command:faultline.openEntry?${args})`
      );
    })
    .join("\n\n---\n\n");
}

/* ---------------------------------------------------------------- the panel's HTML */

export function escapeHtml(s: string): string {
  const map: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  return s.replace(/[&<>"']/g, (c) => map[c]);
}

/* Messages the panel's script posts to the extension. */
export type PanelMessage =
  | { type: "copy"; diagnosis: number }
  | { type: "run"; diagnosis: number }
  | { type: "open"; diagnosis: number; evidence: number }
  | { type: "entry"; diagnosis: number };

/* The webview is not trusted input: only well-formed messages about what is shown pass. */
export function isPanelMessage(m: unknown, model: PanelModel): m is PanelMessage {
  const o = m as PanelMessage;
  if (typeof o !== "object" || o === null || typeof o.diagnosis !== "number") return false;
  const d = model.diagnoses[o.diagnosis];
  if (!d) return false;
  switch (o.type) {
    case "copy":
      return d.fix !== "";
    case "run":
      return d.verify !== "";
    case "entry":
      return true;
    case "open":
      return typeof o.evidence === "number" && d.evidence[o.evidence] !== undefined;
    default:
      return false;
  }
}

export interface HtmlOptions {
  nonce: string; // for the Content-Security-Policy of the one script
  cspSource: string; // the webview's own source (webview.cspSource), "" outside VS Code
}

const CSS = `
:root { color-scheme: light dark; }
body { font-family: var(--vscode-font-family, system-ui, "Segoe UI", sans-serif); font-size: var(--vscode-font-size, 13px);
  color: var(--vscode-foreground, #1f2328); background: var(--vscode-editor-background, #ffffff); padding: 16px 22px; line-height: 1.45; }
header h1 { font-size: 1.55em; margin: 0 0 4px; font-weight: 600; }
header .sub { color: var(--vscode-descriptionForeground, #59636e); margin: 0 0 6px; }
.note { color: var(--vscode-descriptionForeground, #59636e); font-style: italic; margin: 0 0 14px; }
.diag { border: 1px solid var(--vscode-panel-border, #d1d9e0); border-radius: 6px; padding: 12px 16px; margin: 0 0 14px; }
.diag h2 { font-size: 1.2em; margin: 0 0 10px; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.diag h2 .grow { flex: 1; }
.diag h2 button { font-size: 0.68em; font-weight: normal; }
.badge { font-size: 0.72em; font-weight: 600; padding: 1px 8px; border-radius: 10px; border: 1px solid currentColor; text-transform: uppercase; letter-spacing: 0.03em; }
.sev-critical, .sev-high { color: var(--vscode-errorForeground, #cf222e); }
.sev-medium { color: var(--vscode-editorWarning-foreground, #9a6700); }
.sev-low { color: var(--vscode-descriptionForeground, #59636e); }
.id { font-family: var(--vscode-editor-font-family, monospace); font-size: 0.78em; color: var(--vscode-descriptionForeground, #59636e); font-weight: normal; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 6px 14px; margin: 0 0 6px; }
dt { font-weight: 600; color: var(--vscode-descriptionForeground, #59636e); }
dd { margin: 0; }
.started { font-weight: 600; }
ul.coll { margin: 0; padding-left: 18px; }
code, pre { font-family: var(--vscode-editor-font-family, ui-monospace, "DejaVu Sans Mono", monospace); }
pre { background: var(--vscode-textCodeBlock-background, #f6f8fa); padding: 8px 10px; border-radius: 4px; white-space: pre-wrap;
  word-break: break-word; margin: 4px 0; font-size: 0.92em; }
.block { margin: 12px 0 0; }
.block h3 { font-size: 0.95em; margin: 0; display: flex; align-items: center; gap: 10px; }
button { font: inherit; font-size: 0.85em; padding: 2px 10px; border-radius: 3px; cursor: pointer; border: 1px solid transparent;
  color: var(--vscode-button-foreground, #ffffff); background: var(--vscode-button-background, #0969da); }
button.secondary { color: var(--vscode-button-secondaryForeground, #1f2328); background: var(--vscode-button-secondaryBackground, #e7ecf0); }
ol.ev { margin: 4px 0 0; padding-left: 20px; }
ol.ev li { margin: 3px 0; }
ol.ev a { font-family: var(--vscode-editor-font-family, monospace); font-size: 0.9em; cursor: pointer; color: var(--vscode-textLink-foreground, #0969da); text-decoration: underline; }
ol.ev .text { display: block; font-family: var(--vscode-editor-font-family, monospace); font-size: 0.86em; overflow-wrap: anywhere; }
.refs div { font-size: 0.9em; overflow-wrap: anywhere; }
.diag.differential { border-style: dashed; color: var(--vscode-descriptionForeground, #59636e); }
.badge.not-matched { color: var(--vscode-descriptionForeground, #59636e); }
`;

const SCRIPT = `
const vscode = acquireVsCodeApi();
document.addEventListener('click', (ev) => {
  const t = ev.target.closest('[data-type]');
  if (!t) return;
  ev.preventDefault();
  const m = { type: t.dataset.type, diagnosis: Number(t.dataset.diagnosis) };
  if (t.dataset.evidence !== undefined) m.evidence = Number(t.dataset.evidence);
  vscode.postMessage(m);
});
`;

function diagnosisHtml(d: PanelDiagnosis, i: number): string {
  const e = escapeHtml;
  const coll = d.collateral.length
    ? `<ul class="coll">${d.collateral
        .map((c) => `<li><code>${e(c.id)}</code> on rank${c.ranks.match(/[,-]/) ? "s" : ""} ${e(c.ranks)} (${c.count} line${c.count === 1 ? "" : "s"}) — a consequence</li>`)
        .join("")}</ul>`
    : "none";
  const ev = d.evidence.length
    ? `<ol class="ev">${d.evidence
        .map((x) => `<li><a data-type="open" data-diagnosis="${i}" data-evidence="${x.index}" title="Open in the editor">${e(x.label)}</a><span class="text">${e(x.text)}</span></li>`)
        .join("")}</ol>`
    : "";
  const fix = d.fix
    ? `<div class="block"><h3>Fix <button class="secondary" data-type="copy" data-diagnosis="${i}">Copy</button></h3><pre>${e(d.fix)}</pre></div>`
    : "";
  const verify = d.verify
    ? `<div class="block"><h3>Verify <button data-type="run" data-diagnosis="${i}">Run in terminal</button></h3><pre>${e(d.verify)}</pre></div>`
    : "";
  const refs = d.references.length
    ? `<div class="block refs"><h3>References</h3>${d.references.map((r) => `<div>${e(r)}</div>`).join("")}</div>`
    : "";
  // a differential matched nothing: where it started and what followed are its headline's
  const about = d.differentialOf
    ? `<dt>Not matched</dt><dd>No line of the input is its own: what the lines of <code>${e(d.differentialOf)}</code> can also mean when its own lines are missing. Its Verify tells the two apart.</dd>
<dt>Root cause</dt><dd>${e(d.rootCause)}</dd>`
    : `<dt>Initiating rank</dt><dd class="started">${e(d.started)}</dd>
<dt>Root cause</dt><dd>${e(d.rootCause)}</dd>
<dt>Collateral</dt><dd>${coll}</dd>`;
  const badge = d.differentialOf
    ? `<span class="badge not-matched">not matched, also consider</span>`
    : `<span class="badge sev-${e(d.severity)}">${e(d.severity)}</span>`;
  return `<section class="diag${d.differentialOf ? " differential" : ""}">
<h2><span>${i + 1}. ${e(d.title)}</span>${badge}<span class="id">${e(d.id)} · confidence ${e(d.confidence)}</span><span class="grow"></span><button class="secondary" data-type="entry" data-diagnosis="${i}">Open encyclopedia entry</button></h2>
<dl>${about}</dl>
${fix}${verify}
${ev ? `<div class="block"><h3>Evidence</h3>${ev}</div>` : ""}${refs}
</section>`;
}

export function renderPanelHtml(m: PanelModel, o: HtmlOptions): string {
  const e = escapeHtml;
  const csp = `default-src 'none'; style-src 'unsafe-inline' ${o.cspSource}; script-src 'nonce-${o.nonce}';`;
  const body = m.diagnoses.length
    ? m.diagnoses.map(diagnosisHtml).join("\n")
    : `<p>faultline found no known failure in this input.</p>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${e(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>faultline</title>
<style>${CSS}</style></head>
<body>
<header><h1>${e(m.headline)}</h1><p class="sub">${e(m.subline)}</p>${m.note ? `<p class="note">${e(m.note)}</p>` : ""}</header>
${body}
<script nonce="${e(o.nonce)}">${SCRIPT}</script>
</body></html>
`;
}
