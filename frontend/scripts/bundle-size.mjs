// The JavaScript a browser downloads to show the login page, gzipped: the entry chunk, the
// login route's chunk, and every chunk they import statically (read from Vite's manifest).
// Usage: node scripts/bundle-size.mjs [--max-kb 300]  (run `npm run build` first)
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const dist = new URL("../dist/", import.meta.url);
const maxIndex = process.argv.indexOf("--max-kb");
const maxKb = maxIndex > 0 ? Number(process.argv[maxIndex + 1]) : 300;
const manifest = JSON.parse(readFileSync(new URL(".vite/manifest.json", dist), "utf8"));
const pages = { entry: "index.html", login: "src/app/routes/login.tsx" };

const js = new Set();
const css = new Set();
function visit(key) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  if (js.has(chunk.file)) return;
  js.add(chunk.file);
  for (const file of chunk.css ?? []) css.add(file);
  for (const imported of chunk.imports ?? []) visit(imported);
}
Object.values(pages).forEach(visit);

function sizes(files) {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = readFileSync(new URL(file, dist));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: files.size, rawKb: +(raw / 1024).toFixed(1), gzipKb: +(gzip / 1024).toFixed(1) };
}

const report = { loginPageJs: sizes(js), loginPageCss: sizes(css), limitKb: maxKb };
console.log(JSON.stringify(report, null, 2));
if (report.loginPageJs.gzipKb > maxKb) {
  console.error(
    `login page JS is ${report.loginPageJs.gzipKb} KB gzipped; the limit is ${maxKb} KB`,
  );
  process.exit(1);
}
