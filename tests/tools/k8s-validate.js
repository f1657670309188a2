#!/usr/bin/env node
// Validates Kubernetes objects (JSON, one a line, on stdin) against the
// JSON Schemas of the Kubernetes API (npm kubernetes-models, generated
// from the API server's OpenAPI) and of cert-manager
// (@kubernetes-models/cert-manager): the offline equivalent of
// `kubectl apply --dry-run=client --validate=strict`, which needs a
// server to fetch the same schemas from.  Prints one line per object,
// "ok Kind/name" or "FAIL Kind/name: what"; exit 1 on any failure or on
// a kind without a schema.
//   node k8s-validate.js NODE_MODULES_DIR < objects.jsonl
const path = require("path");
const readline = require("readline");
const mods = process.argv[2];

function model(apiVersion, kind) {
  const [group, version] = apiVersion.includes("/")
    ? apiVersion.split("/") : ["", apiVersion];
  const tries = group === ""
    ? [path.join(mods, "kubernetes-models", version)]
    : [path.join(mods, "kubernetes-models", group, version),
       path.join(mods, "@kubernetes-models/cert-manager", group, version)];
  for (const t of tries) {
    try {
      const m = require(t);
      if (m[kind]) return m[kind];
    } catch (e) { /* next */ }
  }
  return null;
}

let failed = false;
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (!line.trim()) return;
  const obj = JSON.parse(line);
  const name = `${obj.kind}/${(obj.metadata || {}).name}`;
  const M = model(obj.apiVersion, obj.kind);
  if (!M) {
    console.log(`FAIL ${name}: no schema for ${obj.apiVersion} ${obj.kind}`);
    failed = true;
    return;
  }
  try {
    new M(obj).validate();
    console.log(`ok ${name}`);
  } catch (e) {
    console.log(`FAIL ${name}: ${e.message.replace(/\n/g, " ")}`);
    failed = true;
  }
});
rl.on("close", () => process.exit(failed ? 1 : 0));
