// conformance.js: runs Pulumi's language conformance suite
// (pulumi-test-language, built from tests/pulumi/go.mod) against
// pulumi-language-pclc, and prints PASS/FAIL per test, the messages of each
// failure and `N passed, M failed`.
//
//   node tests/pulumi/conformance.js --suite BIN --host BIN [options] [TEST...]
//     --suite BIN        pulumi-test-language
//     --host BIN         pulumi-language-pclc (started with the suite's
//                        address as its engine, as the CLI starts it)
//     --testdata DIR     the suite's testdata (its module's
//                        tests/testdata folder), from which the programs
//                        the snapshots hold are taken
//     --snapshots DIR    what the host generates (default tests/pulumi/snapshots)
//     --known-failures FILE  tests expected to fail, one per line with its reason
//     -j N               tests run at once (default 2)
//     --keep             keep the temporary directory
//     --accept           rewrite the snapshots from what the host generates
//     --timeout S        seconds one test may take (default 600)
//   TEST...              names or prefixes of the tests to run (default every
//                        l1-, l2- and l3- test; provider- and policy- tests
//                        test plugins written in the language, which a PCL
//                        program cannot be, and are not run)
//
// The suite compares the projects and packages the host generates with a
// snapshot directory.  The host's own output (Pulumi.yaml, the package
// files) is committed under --snapshots; the programs it copies are the
// suite's, so the driver puts the snapshot directory together from both:
// for projects/<test>[/<run>], the committed files and the suite's
// testdata/<test>[/<run>].  --accept runs the suite with PULUMI_ACCEPT and
// keeps, of what the host generated, only what is not the suite's (with
// TEST... the other tests' snapshots stay as they were).
//
// Exit status 0 when every test passed or failed as the known-failure list
// says, 1 otherwise (a listed test that passes is a failure: the list must
// not go stale), 2 for a usage or setup error.
"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawn } = require("child_process");
const { createRequire } = require("module");

const engineRequire = createRequire(path.join(__dirname, "..", "engine", "package.json"));
const grpc = engineRequire("@grpc/grpc-js");
const tproto = engineRequire("@pulumi/pulumi/proto/testing/language_pb.js");
const trpc = engineRequire("@pulumi/pulumi/proto/testing/language_grpc_pb.js");

function usage(msg) {
  process.stderr.write(`conformance.js: ${msg}\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
const opts = { jobs: 2, timeout: 600, snapshots: path.join(__dirname, "snapshots"), tests: [] };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const val = () => {
    if (i + 1 >= argv.length) usage(`${a} needs a value`);
    return argv[++i];
  };
  if (a === "--suite") opts.suite = val();
  else if (a === "--host") opts.host = val();
  else if (a === "--testdata") opts.testdata = val();
  else if (a === "--snapshots") opts.snapshots = val();
  else if (a === "--known-failures") opts.known = val();
  else if (a === "-j") opts.jobs = Number(val());
  else if (a === "--timeout") opts.timeout = Number(val());
  else if (a === "--keep") opts.keep = true;
  else if (a === "--accept") opts.accept = true;
  else if (a.startsWith("-")) usage(`unknown option ${a}`);
  else opts.tests.push(a);
}
if (!opts.suite || !opts.host || !opts.testdata) usage("--suite, --host and --testdata are needed");
if (!(opts.jobs >= 1)) usage("-j needs a positive number");

// The known failures: `name  reason`, # comments.
const known = new Map();
if (opts.known) {
  for (const line of fs.readFileSync(opts.known, "utf8").split("\n")) {
    const t = line.replace(/#.*/, "").trim();
    if (!t) continue;
    const m = /^(\S+)\s+(.+)$/.exec(t);
    if (!m) usage(`${opts.known}: '${t}' has no reason`);
    known.set(m[1], m[2]);
  }
}

function copyTree(src, dst, filter) {
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const s = path.join(src, e.name);
    const d = path.join(dst, e.name);
    if (filter && !filter(s)) continue;
    if (e.isDirectory()) {
      fs.mkdirSync(d, { recursive: true });
      copyTree(s, d, filter);
    } else {
      fs.mkdirSync(dst, { recursive: true });
      fs.copyFileSync(s, d);
    }
  }
}

function listFiles(dir, rel = "") {
  const out = [];
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(path.join(dir, e.name), r));
    else out.push(r);
  }
  return out;
}

// The snapshot directory: the committed files of the host's and, beside
// each project's, the suite's program files.
function buildSnapshots(dst) {
  copyTree(opts.snapshots, dst);
  const projects = path.join(opts.snapshots, "projects");
  if (!fs.existsSync(projects)) return;
  for (const f of listFiles(projects)) {
    if (path.basename(f) !== "Pulumi.yaml") continue;
    const rel = path.dirname(f);
    const src = path.join(opts.testdata, rel);
    if (fs.existsSync(src)) copyTree(src, path.join(dst, "projects", rel));
  }
}

// After an --accept run: the snapshots without the suite's files.
function keepOwn(generated) {
  fs.rmSync(opts.snapshots, { recursive: true, force: true });
  for (const f of listFiles(generated)) {
    const m = /^projects\/(.+)$/.exec(f);
    if (m) {
      const theirs = path.join(opts.testdata, m[1]);
      if (fs.existsSync(theirs) && fs.readFileSync(theirs).equals(fs.readFileSync(path.join(generated, f)))) {
        continue;
      }
    }
    const to = path.join(opts.snapshots, f);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(path.join(generated, f), to);
  }
}

// Starts a program and resolves with the first line it prints (its address
// or port); its stderr goes to logFile.
function startServer(cmd, args, env, logFile) {
  return new Promise((resolve, reject) => {
    const log = fs.openSync(logFile, "a");
    const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", log] });
    let out = "";
    let done = false;
    child.on("error", (err) => { if (!done) { done = true; reject(err); } });
    child.on("exit", (code, sig) => {
      if (!done) {
        done = true;
        reject(new Error(`${cmd} exited (${code ?? sig}) before printing its address; see ${logFile}`));
      }
    });
    child.stdout.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (!done && (nl >= 0 || /^127\.0\.0\.1:\d+$/.test(out))) {
        done = true;
        resolve({ child, line: (nl >= 0 ? out.slice(0, nl) : out).trim() });
      }
    });
    child.stdout.on("end", () => {
      if (!done && out.trim()) { done = true; resolve({ child, line: out.trim() }); }
    });
  });
}

function call(client, method, req, deadlineS) {
  return new Promise((resolve, reject) => {
    const deadline = new Date(Date.now() + deadlineS * 1000);
    client[method](req, { deadline }, (err, resp) => (err ? reject(err) : resolve(resp)));
  });
}

// Waits for a child to exit, killing it after ms.
function stop(child, ms) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
    const timer = setTimeout(() => { child.kill("SIGKILL"); resolve(false); }, ms);
    child.on("exit", () => { clearTimeout(timer); resolve(true); });
    child.kill("SIGTERM");
  });
}

function indent(text) {
  return text.replace(/\s+$/, "").split("\n").map((l) => `    ${l}`).join("\n");
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pclc-conformance-"));
  const snapshots = path.join(tmp, "snapshots");
  fs.mkdirSync(snapshots);
  // An --accept run of some tests keeps the snapshots of the others.
  if (!opts.accept || opts.tests.length) buildSnapshots(snapshots);
  const env = { ...process.env, PCLC_CACHE_DIR: path.join(tmp, "cache") };
  if (opts.accept) env.PULUMI_ACCEPT = "1";
  else delete env.PULUMI_ACCEPT;

  const started = Date.now();
  const suite = await startServer(opts.suite, [], env, path.join(tmp, "suite.log"));
  const host = await startServer(opts.host, [suite.line], env, path.join(tmp, "host.log"));
  const client = new trpc.LanguageTestClient(suite.line, grpc.credentials.createInsecure(), {
    "grpc.max_receive_message_length": 1024 * 1024 * 1024,
  });
  let failed = 0, passed = 0, xfailed = 0;
  try {
    const list = await call(client, "getLanguageTests", new tproto.GetLanguageTestsRequest(), 60);
    let tests = list.getTestsList().filter((t) => /^l[123]-/.test(t)).sort();
    if (opts.tests.length) tests = tests.filter((t) => opts.tests.some((p) => t === p || t.startsWith(p)));
    for (const name of known.keys()) {
      if (!list.getTestsList().includes(name)) usage(`known failure ${name} is not a test of the suite`);
    }
    const prep = new tproto.PrepareLanguageTestsRequest();
    prep.setLanguagePluginName("pclc");
    prep.setLanguagePluginTarget(`127.0.0.1:${host.line}`);
    prep.setSnapshotDirectory(snapshots);
    prep.setTemporaryDirectory(path.join(tmp, "work"));
    const token = (await call(client, "prepareLanguageTests", prep, 120)).getToken();

    let next = 0;
    const worker = async () => {
      while (next < tests.length) {
        const name = tests[next++];
        const req = new tproto.RunLanguageTestRequest();
        req.setToken(token);
        req.setTest(name);
        let ok, messages;
        const t0 = Date.now();
        try {
          const r = await call(client, "runLanguageTest", req, opts.timeout);
          ok = r.getSuccess();
          messages = r.getMessagesList().join("\n");
          if (!ok && r.getStdout().trim()) messages += `\nthe engine's output:\n${r.getStdout()}`;
          if (!ok && r.getStderr().trim()) messages += `\nthe engine's errors:\n${r.getStderr()}`;
        } catch (err) {
          ok = false;
          messages = `the suite failed to run it: ${err.message}`;
        }
        const secs = ((Date.now() - t0) / 1000).toFixed(1);
        const reason = known.get(name);
        if (ok && reason !== undefined) {
          failed++;
          console.log(`FAIL ${name} (${secs} s): passes, but is listed as a known failure (${reason})`);
        } else if (ok) {
          passed++;
          console.log(`PASS ${name} (${secs} s)`);
        } else if (reason !== undefined) {
          xfailed++;
          console.log(`XFAIL ${name} (${secs} s): ${reason}`);
        } else {
          failed++;
          console.log(`FAIL ${name} (${secs} s)\n${indent(messages)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: opts.jobs }, worker));
  } finally {
    client.close();
    const hostStopped = await stop(host.child, 15000);
    await stop(suite.child, 15000);
    if (!hostStopped) {
      console.log("FAIL pulumi-language-pclc did not stop within 15 s of SIGTERM");
      failed++;
    }
  }
  const wall = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`${passed} passed, ${failed} failed${xfailed ? `, ${xfailed} known failures` : ""} (${wall} s)`);
  if (opts.accept) {
    keepOwn(snapshots);
    console.log(`snapshots written to ${opts.snapshots}`);
  }
  if (opts.keep || failed) console.log(`work directory kept: ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(`conformance.js: ${err.stack || err}`);
  process.exit(2);
});
