// gen-cpuprofile-deep.js OUT SECONDS: a real `node --cpu-prof` profile of a deep
// recursive workload with many distinct call paths, SECONDS long (25 gives about
// 4 MB). Run as `node bench/gen-cpuprofile-deep.js OUT 25`: it starts node again with
// --cpu-prof into a private folder and moves the profile node writes to OUT.
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const [out, seconds = "25"] = process.argv.slice(2);
const workload = `
const steps = [];
let rng = 42;
function rand(n) { rng = (rng * 1103515245 + 12345) % 2147483648; return rng % n; }
for (let k = 0; k < 30; k++)
  steps.push(new Function("steps", "rand", "depth",
    "if (depth === 0) { let s = 0; for (let i = 0; i < 200; i++) s += i * " + k + "; return s; }" +
    "return steps[(" + k + " + 1 + rand(3)) % 30](steps, rand, depth - 1);"));
// name each step after its index, so the profile tells them apart
steps.forEach((f, k) => Object.defineProperty(f, "name", { value: "step_" + k }));
const end = Date.now() + ${Number(seconds) * 1000};
let total = 0;
while (Date.now() < end) total += steps[rand(30)](steps, rand, 20 + rand(160));
console.log(total > 0 ? "done" : "none");
`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "proftool-cpuprofile-"));
try {
  execFileSync(process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, "--stack-size=4000", "-e", workload],
    { stdio: ["ignore", "ignore", "inherit"] });
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  fs.copyFileSync(path.join(dir, files[0]), out);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
