// Running the real program (when the checkout's build/faultline exists) and the terminal tail.
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { runProgram, MissingProgramError, OutputTail } = require("../out/run.js");
const model = require("../out/model.js");

const ROOT = path.resolve(__dirname, "..", "..", "..");
const PROGRAM = process.env.FAULTLINE_BIN || path.join(ROOT, "build", "faultline");
const built = fs.existsSync(PROGRAM);
const settings = { program: PROGRAM, mask: "all", kbFolder: "" };

test("diagnose a file with the program", { skip: !built && `no ${PROGRAM}: build the project first` }, async () => {
  const r = await runProgram(PROGRAM, model.diagnoseArgs(settings, ["examples/torchrun-8rank-oom/train.log"]), ROOT);
  assert.equal(r.code, 1, r.stderr);
  const rep = model.parseReport(r.stdout);
  assert.equal(rep.diagnoses[0].id, "cuda-oom");
  const [p] = model.toProblems(rep, { cwd: ROOT });
  assert.equal(p.file, path.join(ROOT, "examples/torchrun-8rank-oom/train.log"));
});

test("diagnose a selection given on standard input", { skip: !built && `no ${PROGRAM}` }, async () => {
  const text = fs.readFileSync(path.join(ROOT, "examples/torchrun-8rank-oom/train.log"), "utf8");
  const r = await runProgram(PROGRAM, model.diagnoseArgs(settings, ["-"]), ROOT, text);
  const rep = model.parseReport(r.stdout);
  assert.equal(rep.diagnoses[0].evidence[0].source, "-");
  const [p] = model.toProblems(rep, { cwd: ROOT, stdinFile: "/sel.log", stdinLine: 10 });
  assert.equal(p.line, 10 + 369 - 1);
});

test("encyclopedia entry as Markdown", { skip: !built && `no ${PROGRAM}` }, async () => {
  const r = await runProgram(PROGRAM, model.kbShowArgs(settings, "cuda-oom"), ROOT);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^# CUDA out of memory\n/);
  assert.match(r.stdout, /\n## Fix\n/);
});

test("a missing program is reported as such", async () => {
  await assert.rejects(runProgram("/nonexistent/faultline", ["version"], ROOT), MissingProgramError);
});

test("the terminal tail keeps the last characters only", () => {
  const t = new OutputTail(10);
  t.push("abcdef");
  t.push("ghijkl");
  assert.equal(t.text(), "cdefghijkl");
  t.push("0123456789ABC");
  assert.equal(t.text(), "3456789ABC");
});
