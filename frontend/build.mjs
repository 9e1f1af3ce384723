// Builds the vendored browser files from the packages pinned in package-lock.json (run by `make frontend`):
//   static/js/vendor/codemirror.bundle.js  one minified ES module (codemirror.js's exports), for the SQL editor;
//   tests/browser/vendor/axe.min.js        axe-core as published, for the browser tests' accessibility checks.
// The bundle opens with a comment naming every package inside it, its version and its licence, followed by each
// distinct licence text once: MIT asks that the notice travel with the code, and the bundle is committed.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
const bundlePath = join(root, "static/js/vendor/codemirror.bundle.js");
const axePath = join(root, "tests/browser/vendor/axe.min.js");

const result = await build({
  entryPoints: [join(here, "codemirror.js")],
  bundle: true,
  format: "esm",
  minify: true,
  target: "es2020",
  legalComments: "none",  // the notices are collected into the banner below instead
  metafile: true,
  write: false,
  logLevel: "warning",
});

// The packages whose code ended up in the bundle (not merely installed or tree-shaken away), from esbuild's account.
const packageDirs = new Set();
const [output] = Object.values(result.metafile.outputs);
for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
  if (!bytesInOutput) continue;
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (match) packageDirs.add(resolve(here, match[1]));
}
const packages = [...packageDirs].map((dir) => {
  const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  return { name: meta.name, version: meta.version, license: meta.license, text: readFileSync(join(dir, "LICENSE"), "utf8").trim() };
}).sort((a, b) => a.name.localeCompare(b.name));

const texts = new Map();  // licence text -> names of the packages under it
for (const item of packages) texts.set(item.text, [...(texts.get(item.text) || []), item.name]);
const comment = (line) => ` * ${line}`.trimEnd().replaceAll("*/", "* /");
const banner = [
  "/*!",
  " * CodeMirror 6 for wozsql's SQL editor, built by `make frontend` (frontend/build.mjs) from frontend/package-lock.json.",
  " * Do not edit: change frontend/codemirror.js and rebuild.",
  " *",
  ...packages.map((item) => comment(`${item.name} ${item.version} (${item.license})`)),
  ...[...texts].flatMap(([text, names]) => [" *", comment(`--- ${names.join(", ")}:`), ...text.split("\n").map(comment)]),
  " */",
].join("\n");

const code = new TextDecoder().decode(result.outputFiles[0].contents);
mkdirSync(dirname(bundlePath), { recursive: true });
writeFileSync(bundlePath, `${banner}\n${code}`);
mkdirSync(dirname(axePath), { recursive: true });
copyFileSync(join(here, "node_modules/axe-core/axe.min.js"), axePath);

const size = (path) => `${(readFileSync(path).length / 1024).toFixed(0)} KiB`;
console.log(`${bundlePath.slice(root.length + 1)}: ${size(bundlePath)} (${packages.length} packages)`);
console.log(`${axePath.slice(root.length + 1)}: ${size(axePath)}`);
