// host-faults.js: pulumi-language-pclc against an engine that misbehaves, a
// program that does not compile, a missing C compiler, a loader that fails
// and requests that are cancelled (make check-host).
//
//   node tests/pulumi/host-faults.js --host BIN [--keep]
//
// Each case starts the host with tests/engine/engine.js as its engine (the
// resource monitor, the engine's log and, with --loader, the schema loader,
// serving the schemas of ../shared/conformance/providers) and calls the
// host's methods as the Pulumi CLI does.  Every case checks that the host
// answers with a clear message and in time, and that no process it started
// is left behind (its process group is gone).  Prints `ok <case>` or
// `FAIL <case>: ...`, then `N passed, M failed`; exit status 1 when a case
// failed.
"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawn, execFileSync } = require("child_process");
const { createRequire } = require("module");

const engineRequire = createRequire(path.join(__dirname, "..", "engine", "package.json"));
const grpc = engineRequire("@grpc/grpc-js");
const lproto = engineRequire("@pulumi/pulumi/proto/language_pb.js");
const lrpc = engineRequire("@pulumi/pulumi/proto/language_grpc_pb.js");
const emptyproto = engineRequire("google-protobuf/google/protobuf/empty_pb.js");

const ENGINE_JS = path.join(__dirname, "..", "engine", "engine.js");
const PROGRAMS = path.join(__dirname, "programs");
const SCHEMAS = path.join(__dirname, "..", "..", "..", "shared", "conformance", "providers");

const argv = process.argv.slice(2);
const hostBin = argv[argv.indexOf("--host") + 1];
const keep = argv.includes("--keep");
if (argv.indexOf("--host") < 0 || !hostBin) {
  process.stderr.write("usage: host-faults.js --host BIN [--keep]\n");
  process.exit(2);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "pclc-host-faults-"));
const cache = path.join(work, "cache");

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// Starts a server program and resolves with {child, port}: engine.js writes
// its port to a file, the host prints it on stdout.
function startEngine(args) {
  const portFile = path.join(work, `engine-port-${Date.now()}-${Math.random()}`);
  const record = path.join(work, `requests-${Date.now()}-${Math.random()}.jsonl`);
  const child = spawn("node", [ENGINE_JS, "--port-file", portFile, "--record", record,
    "--loader", SCHEMAS, ...args], { stdio: ["ignore", "ignore", "inherit"] });
  return (async () => {
    for (let i = 0; i < 300; i++) {
      if (fs.existsSync(portFile) && fs.readFileSync(portFile, "utf8")) {
        return { child, address: `127.0.0.1:${fs.readFileSync(portFile, "utf8").trim()}`, record };
      }
      await sleep(100);
    }
    child.kill("SIGKILL");
    throw new Error("engine.js did not start");
  })();
}

function startHost(engine, env) {
  return new Promise((resolve, reject) => {
    const args = engine ? [engine] : [];
    const child = spawn(hostBin, args, {
      env: { ...process.env, PCLC_CACHE_DIR: cache, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "", err = "";
    child.stderr.on("data", (d) => { err += d; });
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) {
        const client = new lrpc.LanguageRuntimeClient(`127.0.0.1:${out.trim()}`,
          grpc.credentials.createInsecure());
        resolve({ child, client, stderr: () => err });
      }
    });
    child.on("error", reject);
    child.on("exit", (code) => { if (!out.includes("\n")) reject(new Error(`host exited ${code}: ${err}`)); });
  });
}

function exited(child, ms) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
    const t = setTimeout(() => resolve(false), ms);
    child.on("exit", () => { clearTimeout(t); resolve(true); });
  });
}

// The pids of the processes whose parent is pid, and theirs.
function descendants(pid) {
  let out = "";
  try {
    out = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" });
  } catch (e) {
    return [];
  }
  const kids = new Map();
  for (const line of out.split("\n")) {
    const [p, pp] = line.trim().split(/\s+/).map(Number);
    if (!p) continue;
    if (!kids.has(pp)) kids.set(pp, []);
    kids.get(pp).push(p);
  }
  const all = [];
  const todo = [pid];
  while (todo.length) {
    for (const k of kids.get(todo.pop()) || []) {
      all.push(k);
      todo.push(k);
    }
  }
  return all;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return false;
  }
}

// Waits until none of pids is alive (at most ms); returns those still alive.
async function gone(pids, ms) {
  const until = Date.now() + ms;
  let left = pids.filter(alive);
  while (left.length && Date.now() < until) {
    await sleep(100);
    left = left.filter(alive);
  }
  return left;
}

function programInfo(dir) {
  const info = new lproto.ProgramInfo();
  info.setRootDirectory(dir);
  info.setProgramDirectory(dir);
  info.setEntryPoint(".");
  return info;
}

function runRequest(dir, engineAddress, opts = {}) {
  const req = new lproto.RunRequest();
  req.setProject("faults");
  req.setStack("dev");
  req.setPwd(dir);
  req.setInfo(programInfo(dir));
  req.setMonitorAddress(engineAddress);
  req.setLoaderTarget(opts.loader || engineAddress);
  req.setDryrun(false);
  req.setOrganization("organization");
  return req;
}

function call(client, method, req, ms = 120000) {
  return new Promise((resolve) => {
    client[method](req, { deadline: new Date(Date.now() + ms) }, (err, resp) => resolve({ err, resp }));
  });
}

function logs(record) {
  if (!fs.existsSync(record)) return [];
  return fs.readFileSync(record, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l))
    .filter((r) => r.method === "Log").map((r) => r.request.message);
}

function registrations(record) {
  if (!fs.existsSync(record)) return [];
  return fs.readFileSync(record, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l))
    .filter((r) => r.method === "RegisterResource").map((r) => r.request.name);
}

function check(cond, what) {
  if (!cond) throw new Error(what);
}

// Copies a program of tests/pulumi/programs into the work directory.
function program(name) {
  const dst = path.join(work, `${name}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  fs.cpSync(path.join(PROGRAMS, name), dst, { recursive: true });
  return dst;
}

function cacheEntries() {
  const d = path.join(cache, "programs");
  return fs.existsSync(d) ? fs.readdirSync(d).length : 0;
}

// Waits until the host has started the program (a child that is not pclc
// or the C compiler), and returns the pids of the host's descendants.
async function programStarted(host, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const pids = descendants(host.child.pid);
    for (const p of pids) {
      let exe = "";
      try {
        exe = fs.readlinkSync(`/proc/${p}/exe`);
      } catch (e) {
        continue;
      }
      if (exe.startsWith(cache)) return pids;
    }
    await sleep(100);
  }
  throw new Error("the program did not start");
}

const cases = [];
function test(name, fn) {
  cases.push({ name, fn });
}

test("a program runs, and a second run compiles nothing", async () => {
  const engine = await startEngine([]);
  const host = await startHost(engine.address);
  try {
    const dir = program("simple");
    let { err, resp } = await call(host.client, "run", runRequest(dir, engine.address));
    check(!err, `Run failed: ${err && err.message}`);
    check(resp.getError() === "" && !resp.getBail(), `the run failed: ${resp.getError()}`);
    check(registrations(engine.record).includes("r"), "the program registered nothing");
    check(cacheEntries() === 1, `the cache holds ${cacheEntries()} programs, not 1`);
    const built = fs.readdirSync(path.join(cache, "programs"))[0];
    const exe = path.join(cache, "programs", built, "program");
    const mtime = fs.statSync(exe).mtimeMs;
    ({ err, resp } = await call(host.client, "run", runRequest(dir, engine.address)));
    check(!err && resp.getError() === "", "the second run failed");
    check(cacheEntries() === 1 && fs.statSync(exe).mtimeMs === mtime,
      "the second run of an unchanged program built it again");
    // A changed component is a changed program.
    const comp = program("component");
    ({ err, resp } = await call(host.client, "run", runRequest(comp, engine.address)));
    check(!err && resp.getError() === "", `the component program failed: ${resp && resp.getError()}`);
    check(cacheEntries() === 2, "the component program was not built");
    fs.appendFileSync(path.join(comp, "child", "main.pp"), "\n# changed\n");
    ({ err, resp } = await call(host.client, "run", runRequest(comp, engine.address)));
    check(!err && resp.getError() === "", "the changed component program failed");
    check(cacheEntries() === 3, "a changed component file did not make a new build");
  } finally {
    host.child.kill("SIGTERM");
    engine.child.kill("SIGKILL");
    await exited(host.child, 10000);
  }
});

test("a compile error is logged with its location, and the run bails", async () => {
  const engine = await startEngine([]);
  const host = await startHost(engine.address);
  try {
    const dir = program("broken");
    const { err, resp } = await call(host.client, "run", runRequest(dir, engine.address));
    check(!err, `Run failed: ${err && err.message}`);
    check(resp.getBail() && resp.getError() === "", `expected a bail, got error '${resp.getError()}'`);
    const l = logs(engine.record);
    const want = "main.pp:3:11: undefined variable missing\n" +
      "  value = missing\n" +
      "          ^~~~~~~";
    check(l.length === 1 && l[0] === want, `the engine's log got ${JSON.stringify(l)}`);
  } finally {
    host.child.kill("SIGTERM");
    engine.child.kill("SIGKILL");
    await exited(host.child, 10000);
  }
});

test("a missing C compiler is an error that says so", async () => {
  const engine = await startEngine([]);
  const host = await startHost(engine.address, { PCLC_CC: "/nonexistent/cc", PCLC_CACHE_DIR: path.join(work, "cache-nocc") });
  try {
    const { err, resp } = await call(host.client, "run", runRequest(program("simple"), engine.address));
    check(!err, `Run failed: ${err && err.message}`);
    const want = "cannot run /nonexistent/cc: No such file or directory; install a C compiler or name one in PCLC_CC";
    check(resp.getError() === want, `the error is '${resp.getError()}'`);
    check(!resp.getBail(), "a missing compiler is not a bail");
  } finally {
    host.child.kill("SIGTERM");
    engine.child.kill("SIGKILL");
    await exited(host.child, 10000);
  }
});

test("a loader that fails is an error naming the package", async () => {
  const engine = await startEngine(["--fault", "loader"]);
  const host = await startHost(engine.address);
  try {
    const { err, resp } = await call(host.client, "run", runRequest(program("simple"), engine.address));
    check(!err, `Run failed: ${err && err.message}`);
    const want = new RegExp("^cannot load the schema of package 'simple': codegen.Loader/GetSchema at " +
      "127\\.0\\.0\\.1:\\d+: the engine answered UNAVAILABLE: the schema registry is down$");
    check(want.test(resp.getError()), `the error is '${resp.getError()}'`);
  } finally {
    host.child.kill("SIGTERM");
    engine.child.kill("SIGKILL");
    await exited(host.child, 10000);
  }
});

test("Cancel during Run stops the program and answers at once", async () => {
  const engine = await startEngine(["--delay", "600000"]);
  const host = await startHost(engine.address);
  try {
    const running = call(host.client, "run", runRequest(program("simple"), engine.address));
    const pids = await programStarted(host, 60000);
    const t0 = Date.now();
    const c = await call(host.client, "cancel", new emptyproto.Empty());
    check(!c.err, `Cancel failed: ${c.err && c.err.message}`);
    const { err, resp } = await running;
    const secs = (Date.now() - t0) / 1000;
    check(!err, `Run failed: ${err && err.message}`);
    check(resp.getError() === "the program was cancelled", `the error is '${resp.getError()}'`);
    check(secs < 10, `Run answered ${secs} s after Cancel`);
    const left = await gone(pids, 5000);
    check(left.length === 0, `processes left after Cancel: ${left}`);
    // The host still serves.
    const info = await call(host.client, "getPluginInfo", new emptyproto.Empty());
    check(!info.err, "the host stopped serving after Cancel");
  } finally {
    host.child.kill("SIGTERM");
    engine.child.kill("SIGKILL");
    await exited(host.child, 10000);
  }
});

test("a Run the engine abandons stops its program", async () => {
  const engine = await startEngine(["--delay", "600000"]);
  const host = await startHost(engine.address);
  try {
    let settled;
    const running = new Promise((resolve) => { settled = resolve; });
    const handle = host.client.run(runRequest(program("simple"), engine.address), (err) => settled(err));
    const pids = await programStarted(host, 60000);
    // The client cancels the call, as the engine does when it gives up on
    // the run.
    handle.cancel();
    const left = await gone(pids, 15000);
    check(left.length === 0, `processes left after the client cancelled: ${left}`);
    const err = await running;
    check(err && err.code === grpc.status.CANCELLED, "the call was not cancelled");
  } finally {
    host.child.kill("SIGTERM");
    engine.child.kill("SIGKILL");
    await exited(host.child, 10000);
  }
});

test("the engine gone mid-run stops the host and the program", async () => {
  const engine = await startEngine(["--delay", "600000"]);
  const host = await startHost(engine.address);
  const running = call(host.client, "run", runRequest(program("simple"), engine.address));
  const pids = await programStarted(host, 60000);
  const t0 = Date.now();
  engine.child.kill("SIGKILL");
  const stopped = await exited(host.child, 15000);
  const secs = (Date.now() - t0) / 1000;
  if (!stopped) host.child.kill("SIGKILL");
  check(stopped, "the host did not stop within 15 s of the engine going away");
  check(host.child.exitCode === 0, `the host exited with ${host.child.exitCode}`);
  check(/the engine at 127\.0\.0\.1:\d+ is gone/.test(host.stderr()),
    `the host did not say why it stopped: ${host.stderr()}`);
  const left = await gone(pids, 5000);
  check(left.length === 0, `processes left: ${left}`);
  check(secs < 10, `the host took ${secs} s to stop`);
  await running;
});

test("SIGTERM stops the host and its program at once", async () => {
  const engine = await startEngine(["--delay", "600000"]);
  const host = await startHost(engine.address);
  try {
    call(host.client, "run", runRequest(program("simple"), engine.address));
    const pids = await programStarted(host, 60000);
    host.child.kill("SIGTERM");
    const stopped = await exited(host.child, 10000);
    check(stopped, "the host did not stop within 10 s of SIGTERM");
    const left = await gone(pids, 5000);
    check(left.length === 0, `processes left: ${left}`);
  } finally {
    host.child.kill("SIGKILL");
    engine.child.kill("SIGKILL");
  }
});

test("a host killed with SIGKILL leaves no program behind", async () => {
  const engine = await startEngine(["--delay", "600000"]);
  const host = await startHost(engine.address);
  try {
    call(host.client, "run", runRequest(program("simple"), engine.address));
    const pids = await programStarted(host, 60000);
    host.child.kill("SIGKILL");
    const left = await gone(pids, 5000);
    check(left.length === 0, `processes left: ${left}`);
  } finally {
    engine.child.kill("SIGKILL");
  }
});

test("a request that does not decode is INVALID_ARGUMENT, and the host still serves", async () => {
  const host = await startHost(null);
  try {
    // Field 1 as a length-delimited value of 5 bytes of which only 1 came.
    const truncated = Buffer.from([0x0a, 0x05, 0x61]);
    const methods = ["Handshake", "GetRequiredPlugins", "GetRequiredPackages", "Run",
      "GetProgramDependencies", "GenerateProgram", "GenerateProject", "GeneratePackage",
      "Pack", "Link"];
    for (const m of methods) {
      const err = await new Promise((resolve) => {
        host.client.makeUnaryRequest(`/pulumirpc.LanguageRuntime/${m}`, (b) => b, (b) => b,
          truncated, { deadline: new Date(Date.now() + 30000) }, (e) => resolve(e));
      });
      check(err && err.code === grpc.status.INVALID_ARGUMENT,
        `${m} answered ${err ? `${err.code} ${err.details}` : "success"}`);
      check(err.details === `the ${m} request does not decode`, `${m} said '${err.details}'`);
    }
    const { err } = await call(host.client, "getPluginInfo", new emptyproto.Empty());
    check(!err, "the host stopped serving after a request that does not decode");
  } finally {
    host.child.kill("SIGTERM");
    check(await exited(host.child, 10000), "the host did not stop on SIGTERM");
  }
});

test("started without an address, the host serves until stopped", async () => {
  const host = await startHost(null);
  try {
    const { err, resp } = await call(host.client, "getPluginInfo", new emptyproto.Empty());
    check(!err && resp.getVersion() !== "", "GetPluginInfo failed");
    await sleep(3000);
    check(host.child.exitCode === null, "the host stopped on its own");
  } finally {
    host.child.kill("SIGTERM");
    check(await exited(host.child, 10000), "the host did not stop on SIGTERM");
  }
});

async function main() {
  let passed = 0, failed = 0;
  for (const c of cases) {
    try {
      await c.fn();
      passed++;
      console.log(`ok ${c.name}`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${c.name}: ${e.message}`);
    }
  }
  console.log(`host faults: ${passed} passed, ${failed} failed`);
  if (keep || failed) console.log(`work directory kept: ${work}`);
  else fs.rmSync(work, { recursive: true, force: true });
  process.exit(failed ? 1 : 0);
}

main();
