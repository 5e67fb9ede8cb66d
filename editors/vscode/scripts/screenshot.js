// Renders the results panel's HTML (model.renderPanelHtml, the same the webview shows) for a
// report, with the theme variables VS Code gives webviews (Dark Modern's colours), and takes a
// screenshot with headless Chromium.
// Usage: node scripts/screenshot.js REPORT.json OUT.png [WIDTH HEIGHT]
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const model = require("../out/model.js");

const [report, out, width = "1100", height = "1300"] = process.argv.slice(2);
if (!report || !out) {
  console.error("usage: node scripts/screenshot.js REPORT.json OUT.png [WIDTH HEIGHT]");
  process.exit(2);
}
const THEME = `<style>:root {
  --vscode-font-family: "DejaVu Sans", system-ui, sans-serif; --vscode-font-size: 13px;
  --vscode-editor-font-family: "DejaVu Sans Mono", monospace;
  --vscode-foreground: #cccccc; --vscode-editor-background: #1f1f1f;
  --vscode-descriptionForeground: #9d9d9d; --vscode-panel-border: #2b2b2b;
  --vscode-errorForeground: #f85149; --vscode-editorWarning-foreground: #cca700;
  --vscode-textCodeBlock-background: #2b2b2b; --vscode-textLink-foreground: #4daafc;
  --vscode-button-background: #0078d4; --vscode-button-foreground: #ffffff;
  --vscode-button-secondaryBackground: #313131; --vscode-button-secondaryForeground: #cccccc;
}</style>`;
const r = model.parseReport(fs.readFileSync(report, "utf8"));
const html = model.renderPanelHtml(model.toPanelModel(r), { nonce: "screenshot", cspSource: "" })
  .replace("</head>", THEME + "</head>");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "faultline-shot-"));
const page = path.join(dir, "panel.html");
fs.writeFileSync(page, html);
const chromium = process.env.CHROMIUM || "chromium";
execFileSync(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
  `--window-size=${width},${height}`, `--screenshot=${path.resolve(out)}`, `file://${page}`],
  { stdio: ["ignore", "ignore", "inherit"], timeout: 120000 });
fs.rmSync(dir, { recursive: true, force: true });
console.log(`${out}: the panel for ${report}`);
