// A real tessera-server on a store precomputed from the examples, for the tests
// and the benchmark. TESSERA_SERVER and TESSERA_CLI name the executables
// (default: the debug builds under .build of the repository).
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export function executable(variable, fallback) {
  return path.resolve(repositoryRoot, process.env[variable] || fallback);
}

export const serverPath = executable("TESSERA_SERVER", ".build/debug/tessera-server");
export const cliPath = executable("TESSERA_CLI", ".build/debug/tessera");

export function temporaryDirectory() {
  return mkdtempSync(path.join(tmpdir(), "tessera-js-"));
}

export function removeDirectory(directory) {
  rmSync(directory, { recursive: true, force: true });
}

export function readExample(name) {
  return JSON.parse(readFileSync(path.join(repositoryRoot, "Examples", name), "utf8"));
}

/** Runs `tessera precompute` on `spec` (an object) under `name`; `extents` e.g. ["--width", "390"]. */
export function precompute(directory, db, name, spec, extents) {
  const file = path.join(directory, `${name}.json`);
  writeFileSync(file, JSON.stringify(spec));
  execFileSync(cliPath, ["precompute", file, "--db", db, "--name", name, "--quiet", ...extents], { stdio: ["ignore", "ignore", "pipe"] });
}

/**
 * Starts tessera-server on `db` (port 0) and resolves to {url, stop};
 * `token` turns on writes.
 */
export async function startServer(db, { directory, token } = {}) {
  const args = ["--db", db, "--port", "0"];
  if (token) {
    const file = path.join(directory, "token");
    writeFileSync(file, token + "\n");
    args.push("--token-file", file);
  }
  const child = spawn(serverPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let errors = "";
  child.stderr.on("data", (chunk) => (errors += chunk));
  const url = await new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`tessera-server did not start in 30 s: ${errors}`)), 30_000);
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot start ${serverPath}: ${error.message}`));
    });
    child.on("exit", (status) => {
      clearTimeout(timer);
      reject(new Error(`tessera-server exited with ${status}: ${errors}`));
    });
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.on("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { url, stop };
}
