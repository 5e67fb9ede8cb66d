// The mapping of faultline's JSON report to the panel, Problems entries, hovers and command
// lines, over the reports of the golden tests (tests/golden/*/expected.json).
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const model = require("../out/model.js");

const ROOT = path.resolve(__dirname, "..", "..", "..");
const golden = (c) => JSON.parse(fs.readFileSync(path.join(ROOT, "tests", "golden", c, "expected.json"), "utf8"));
const EXAMPLE = golden("example-json");
const HEALTHY = golden("healthy");

test("every golden report parses", () => {
  const cases = fs.readdirSync(path.join(ROOT, "tests", "golden"))
    .filter((c) => fs.existsSync(path.join(ROOT, "tests", "golden", c, "expected.json")));
  assert.ok(cases.length >= 2);
  for (const c of cases) {
    const text = fs.readFileSync(path.join(ROOT, "tests", "golden", c, "expected.json"), "utf8");
    const r = model.parseReport(text);
    const m = model.toPanelModel(r);
    assert.equal(m.diagnoses.length, r.diagnoses.length, c);
  }
});

test("panel model of the bundled example", () => {
  const m = model.toPanelModel(EXAMPLE);
  assert.equal(m.headline, "CUDA out of memory — started on rank 3");
  assert.match(m.subline, /^1 source\(s\), 427 lines, 44796 bytes, ranks 0-7 — faultline /);
  const d = m.diagnoses[0];
  assert.equal(d.id, "cuda-oom");
  assert.equal(d.started, "rank 3 on host-1 at 2026-05-01T12:02:05.448");
  assert.equal(d.confidence, "81%");
  assert.deepEqual(d.collateral, [
    { id: "nccl-watchdog-timeout", ranks: "0-2,4-7", count: 7 },
    { id: "child-failed", ranks: "3", count: 4 },
  ]);
  assert.equal(d.fix, EXAMPLE.diagnoses[0].fix);
  assert.equal(d.verify, EXAMPLE.diagnoses[0].verify);
  assert.equal(d.evidence[0].label, "examples/torchrun-8rank-oom/train.log:369 (rank 3)");
  assert.equal(m.note, EXAMPLE.note);
});

test("healthy report: no failure, no problems", () => {
  const m = model.toPanelModel(HEALTHY);
  assert.equal(m.headline, "No known failure found");
  assert.deepEqual(model.toProblems(HEALTHY, { cwd: ROOT }), []);
  assert.match(model.renderPanelHtml(m, { nonce: "n", cspSource: "" }), /no known failure/);
});

test("problems point at the log lines that matched", () => {
  // the headline's evidence lines; its differentials (cuda-oom's: fragmentation, a leak) are
  // hints on the same lines
  const all = model.toProblems(EXAMPLE, { cwd: ROOT });
  const ps = all.filter((p) => p.severity !== "hint");
  assert.equal(ps.length, EXAMPLE.diagnoses[0].evidence.length);
  assert.equal(all.length - ps.length,
    EXAMPLE.diagnoses.filter((d) => d.differential_of).length * ps.length);
  const p = ps[0];
  assert.equal(p.file, path.join(ROOT, "examples/torchrun-8rank-oom/train.log"));
  assert.equal(p.line, 368);
  assert.equal(p.severity, "error");
  assert.equal(p.code, "cuda-oom");
  assert.match(p.message, /^CUDA out of memory on rank 3: torch\.OutOfMemoryError/);
  // the 0-based line really is the evidence line of the log
  const lines = fs.readFileSync(p.file, "utf8").split("\n");
  assert.match(lines[p.line], /torch\.OutOfMemoryError: CUDA out of memory/);
});

test("evidence read from standard input maps back into the selection", () => {
  const r = structuredClone(EXAMPLE);
  r.diagnoses[0].evidence = [{ source: "-", line: 3, rank: 3, text: "x" }];
  const [p] = model.toProblems(r, { cwd: "/w", stdinFile: "/w/run.log", stdinLine: 100 });
  assert.deepEqual([p.file, p.line], ["/w/run.log", 102]);
  assert.deepEqual(model.toProblems(r, { cwd: "/w" }), []); // terminal text: no file
});

test("severity and secondary diagnoses", () => {
  const r = structuredClone(EXAMPLE);
  const second = { ...structuredClone(r.diagnoses[0]), id: "other", title: "Other", severity: "low" };
  r.diagnoses.push(second);
  const ps = model.toProblems(r, { cwd: ROOT });
  assert.equal(ps.at(-1).severity, "warning");
  assert.match(ps.at(-1).message, /\(secondary diagnosis\)/);
  assert.equal(model.severityOf({ severity: "critical" }), "error");
  assert.equal(model.severityOf({ severity: "medium" }), "warning");
  assert.equal(model.severityOf({ severity: "low" }), "information");
});

test("hover on a matched line names the entry and links to it", () => {
  const ps = model.toProblems(EXAMPLE, { cwd: ROOT });
  const idx = model.hoverIndex(ps, EXAMPLE);
  const ds = idx.get(path.join(ROOT, "examples/torchrun-8rank-oom/train.log")).get(368);
  assert.equal(ds[0].id, "cuda-oom");
  const md = model.hoverMarkdown(ds);
  assert.match(md, /\*\*faultline: CUDA out of memory\*\* \(`cuda-oom`, high, started on rank 3\)/);
  assert.ok(md.includes("command:faultline.openEntry?" + encodeURIComponent('["cuda-oom"]')));
  assert.equal(idx.get(path.join(ROOT, "examples/torchrun-8rank-oom/train.log")).get(367), undefined);
});

test("a differential is a hint on its headline's lines, never a problem of its own", () => {
  const r = golden("differential-listed");
  const [top, alt] = r.diagnoses;
  assert.equal(alt.differential_of, top.id); // the golden report this test is about
  const ps = model.toProblems(r, { cwd: ROOT });
  const mine = ps.filter((p) => p.code === alt.id);
  assert.equal(mine.length, top.evidence.length);
  for (const p of mine) {
    assert.equal(p.severity, "hint");
    assert.match(p.message, /^Not matched, also consider No space left on device: /);
  }
  assert.deepEqual(ps.filter((p) => p.code === top.id).map((p) => p.severity), ["error"]);
  const file = path.join(ROOT, top.evidence[0].source);
  const ds = model.hoverIndex(ps, r).get(file).get(top.evidence[0].line - 1);
  assert.deepEqual(ds.map((d) => d.id), [top.id, alt.id]);
  const md = model.hoverMarkdown(ds);
  assert.match(md, /\*\*faultline: Shared filesystem I\/O error\*\* \(`storage-io-error`, high\)/);
  assert.match(md, /\*\*faultline, not matched: also consider No space left on device\*\* \(`disk-full`\): what the lines of `storage-io-error`/);
});

test("panel: a differential is drawn as not matched, without rank, collateral or evidence", () => {
  const r = golden("differential-listed");
  const m = model.toPanelModel(r);
  assert.deepEqual(m.diagnoses.map((d) => d.differentialOf), ["", "storage-io-error"]);
  const html = model.renderPanelHtml(m, { nonce: "n", cspSource: "" });
  const [matched, alt] = html.split('<section class="diag').slice(1);
  assert.ok(!matched.startsWith(" differential") && matched.includes("<h3>Evidence</h3>"));
  assert.ok(alt.startsWith(' differential"'));
  assert.match(alt, /<span class="badge not-matched">not matched, also consider<\/span>/);
  assert.match(alt, /<dt>Not matched<\/dt><dd>No line of the input is its own: what the lines of <code>storage-io-error<\/code>/);
  for (const t of ["Evidence", "Initiating rank", "Collateral", "sev-high"]) assert.ok(!alt.includes(t), t);
  assert.match(alt, /<h3>Verify <button data-type="run" data-diagnosis="1">/);
});

test("panel HTML: headline, actions, escaped text, one script with a nonce", () => {
  const r = structuredClone(EXAMPLE);
  r.diagnoses[0].evidence[0].text = '<script>alert("x")</script> & <img src=x onerror=alert(1)>';
  const html = model.renderPanelHtml(model.toPanelModel(r), { nonce: "abc123", cspSource: "vscode-webview:" });
  assert.match(html, /<h1>CUDA out of memory — started on rank 3<\/h1>/);
  for (const t of ["copy", "run", "entry", "open"]) assert.match(html, new RegExp(`data-type="${t}" data-diagnosis="0"`));
  assert.ok(html.includes("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;"));
  assert.equal(html.match(/<script/g).length, 1);
  assert.match(html, /<script nonce="abc123">/);
  assert.ok(html.includes("script-src &#39;nonce-abc123&#39;"));
  assert.match(html, /nccl-watchdog-timeout<\/code> on ranks 0-2,4-7 \(7 lines\)/);
  assert.match(html, /child-failed<\/code> on rank 3 \(4 lines\)/);
});

test("panel messages are checked against what is shown", () => {
  const m = model.toPanelModel(EXAMPLE);
  assert.ok(model.isPanelMessage({ type: "copy", diagnosis: 0 }, m));
  assert.ok(model.isPanelMessage({ type: "open", diagnosis: 0, evidence: 0 }, m));
  assert.ok(!model.isPanelMessage({ type: "open", diagnosis: 0, evidence: 9 }, m));
  assert.ok(!model.isPanelMessage({ type: "run", diagnosis: 4 }, m));
  assert.ok(!model.isPanelMessage({ type: "exec", diagnosis: 0 }, m));
  assert.ok(!model.isPanelMessage(null, m));
});

test("command lines", () => {
  const s = { program: "faultline", mask: "all", kbFolder: "" };
  assert.deepEqual(model.diagnoseArgs(s, ["logs", "-"]), ["diagnose", "--format", "json", "--mask", "all", "logs", "-"]);
  assert.deepEqual(model.diagnoseArgs({ ...s, mask: "none", kbFolder: "/kb" }, ["-rank0.log"]),
    ["diagnose", "--format", "json", "--no-mask", "--kb", "/kb", "./-rank0.log"]);
  assert.deepEqual(model.diagnoseArgs({ ...s, mask: "secrets" }, ["a"]).slice(3, 5), ["--mask", "secrets"]);
  assert.deepEqual(model.kbShowArgs(s, "cuda-oom"), ["kb", "show", "--format", "markdown", "cuda-oom"]);
  assert.ok(model.exitMeansReport(0) && model.exitMeansReport(1) && !model.exitMeansReport(2));
  assert.match(model.missingProgramMessage("/x/faultline"), /"\/x\/faultline" was not found.*cmake --build build/);
});

test("workspace trust: an untrusted workspace cannot choose the program", () => {
  const i = { defaultValue: "", globalValue: "/usr/local/bin/faultline", workspaceValue: "./evil.sh" };
  assert.equal(model.effectiveSetting(i, true, "faultline"), "./evil.sh");
  assert.equal(model.effectiveSetting(i, false, "faultline"), "/usr/local/bin/faultline");
  assert.equal(model.effectiveSetting({ defaultValue: "", workspaceValue: "./evil.sh" }, false, "faultline"), "faultline");
  assert.equal(model.effectiveSetting(undefined, true, "faultline"), "faultline");
});

test("bad output is an error that says so", () => {
  assert.throws(() => model.parseReport("faultline: no such file\n"), /no JSON report/);
  assert.throws(() => model.parseReport('{"a": 1}'), /not a report/);
});
