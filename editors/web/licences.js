// Prints the packages the bundle holds (from esbuild's metafile), each
// with its version, licence and licence text.
const fs = require("fs");
const path = require("path");
const meta = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const dirs = new Set();
for (const input of Object.keys(meta.inputs)) {
  const m = input.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (m) dirs.add(m[1]);
}
const names = [...dirs].sort();
let out = "src/web/assets/vendor/codemirror.js is built by editors/web/build.sh and bundles:\n";
for (const n of names) {
  const p = JSON.parse(fs.readFileSync(path.join("node_modules", n, "package.json"), "utf8"));
  out += `- ${p.name} ${p.version} (${p.license})\n`;
}
for (const n of names) {
  const dir = path.join("node_modules", n);
  const file = fs.readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  if (file) out += `\n== ${n} ==\n` + fs.readFileSync(path.join(dir, file), "utf8").trimEnd() + "\n";
}
process.stdout.write(out);
