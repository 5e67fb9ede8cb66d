// The extension's manifest (package.json contributes), the packaged .vsix when FAULTLINE_VSIX
// names one, and no network code in what ships.
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { execFileSync } = require("node:child_process");

const DIR = path.resolve(__dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(DIR, "package.json"), "utf8"));

test("commands, menus and settings are contributed", () => {
  const cmds = Object.fromEntries(pkg.contributes.commands.map((c) => [c.command, `${c.category}: ${c.title}`]));
  assert.deepEqual(cmds, {
    "faultline.diagnoseSelection": "faultline: Diagnose selection",
    "faultline.diagnoseFile": "faultline: Diagnose file/folder",
    "faultline.diagnoseTerminal": "faultline: Diagnose last terminal output",
    "faultline.openEntry": "faultline: Open encyclopedia entry",
  });
  assert.ok(pkg.contributes.menus["explorer/context"].some((m) => m.command === "faultline.diagnoseFile"));
  assert.ok(pkg.contributes.menus["editor/context"].some((m) => m.command === "faultline.diagnoseSelection"));
  const props = pkg.contributes.configuration.properties;
  assert.deepEqual(Object.keys(props).sort(), ["faultline.kbFolder", "faultline.mask", "faultline.path"]);
  assert.deepEqual(props["faultline.mask"].enum, ["all", "secrets", "none"]);
  const trust = pkg.capabilities.untrustedWorkspaces;
  assert.equal(trust.supported, "limited");
  assert.deepEqual(trust.restrictedConfigurations.sort(), ["faultline.kbFolder", "faultline.path"]);
  assert.ok(fs.existsSync(path.join(DIR, pkg.main)), `${pkg.main} is not built`);
});

test("every command the code registers is contributed, and the reverse", () => {
  const src = fs.readFileSync(path.join(DIR, "src", "extension.ts"), "utf8");
  const registered = [...src.matchAll(/registerCommand\("([^"]+)"/g)].map((m) => m[1]).sort();
  assert.deepEqual(registered, pkg.contributes.commands.map((c) => c.command).sort());
});

test("nothing that ships can reach the network", () => {
  for (const f of fs.readdirSync(path.join(DIR, "out")).filter((f) => f.endsWith(".js"))) {
    const js = fs.readFileSync(path.join(DIR, "out", f), "utf8");
    for (const mod of ["http", "https", "http2", "net", "tls", "dgram", "dns"])
      assert.ok(!js.includes(`require("${mod}")`) && !js.includes(`require("node:${mod}")`), `${f} requires ${mod}`);
    assert.ok(!/\bfetch\(|XMLHttpRequest|WebSocket/.test(js), `${f} has network calls`);
  }
});

test("the packaged .vsix", { skip: !process.env.FAULTLINE_VSIX && "FAULTLINE_VSIX not set (.ci/run sets it)" }, () => {
  const list = execFileSync("unzip", ["-Z1", process.env.FAULTLINE_VSIX], { encoding: "utf8" }).split("\n");
  for (const f of ["extension.vsixmanifest", "extension/package.json", "extension/out/extension.js",
    "extension/out/model.js", "extension/out/run.js"])
    assert.ok(list.includes(f), `${f} missing from the .vsix`);
  assert.ok(!list.some((f) => f.startsWith("extension/node_modules/") || f.startsWith("extension/src/")),
    "the .vsix carries sources or node_modules");
  const shipped = JSON.parse(execFileSync("unzip", ["-p", process.env.FAULTLINE_VSIX, "extension/package.json"], { encoding: "utf8" }));
  assert.deepEqual(shipped.contributes, pkg.contributes);
});
