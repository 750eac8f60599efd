// engine.js: a test stand-in for the Pulumi engine.  It serves
// pulumirpc.ResourceMonitor and pulumirpc.Engine with @grpc/grpc-js and the
// message code that @pulumi/pulumi generates from Pulumi's own .proto files,
// so every request a program sends is decoded by Pulumi's code, and it
// records each one it decodes (one JSON object per line).
//
// It answers as a plain engine would: URNs built the Pulumi way, ids
// "<name>_id" (none in a preview or for components), outputs echoing the
// inputs, invokes and calls echoing their arguments, RegisterPackage with
// the reference "<package name>-ref", ExistsResource true for a custom
// resource it registered with that type and id whose inputs hold every
// entry of the state given.  A RegisterPackage is recorded once
// answered, with the reference answered ("ref"), also when forwarded.
// Options:
//   --project NAME, --stack NAME  the names in the URNs it makes
//   --port-file FILE   listen on 127.0.0.1 (a free port) and write the port
//   --record FILE      append each decoded request to FILE
//   --forward ADDR     pass every request, decoded and encoded again by
//                      Pulumi's code, to the engine at ADDR and its answer
//                      back (the faults and --delay then do not apply);
//                      byte strings, output values and every other wire
//                      object are Struct members there, so they pass
//                      through as they are, and so does every request
//                      field the program sets (acceptsByteString too)
//   --delay MS         answer each RegisterResource after MS milliseconds
//   --preview          answer as in a preview: custom resources get no id
//   --old-monitor      answer GetDeploymentInfo UNIMPLEMENTED (the program
//                      then asks SupportsFeature, feature by feature), also
//                      with --forward: a monitor that predates
//                      GetDeploymentInfo, and so byte strings
//   --no-parameterization  claim no support for RegisterPackage (feature 9,
//                      SupportsFeature "parameterization"), as engines that
//                      predate parameterized packages do
//   --per-value-outputs  also list INVOKE_OUTPUT_VALUES and CALL_OUTPUT_VALUES
//                      (features 17, 18), also with --forward: the program then
//                      sends every output inside an invoke's or call's
//                      arguments as an output value
//   --loader DIR       also serve the schema loader codegen.Loader (as the
//                      engine does for a language host): GetSchema answers
//                      DIR/<package>-<version>.json, the highest version
//                      when none is asked for, the parameterization's name
//                      and version for a parameterized package
//   --fault KIND       misbehave: close-after=N (exit after the Nth
//                      registration arrived, dropping the connection
//                      with it unanswered),
//                      unavailable (RegisterResource answers UNAVAILABLE),
//                      malformed (RegisterResource answers bytes that are
//                      not a message), fail-register=NAME (the registration
//                      of NAME reports result FAIL, as the engine does when
//                      it continues on error), skip-register=NAME (the
//                      registration of NAME says it was not run: unknown,
//                      as a targeted update answers), fail-invoke (Invoke
//                      answers a check failure), version (RequirePulumiVersion
//                      answers FAILED_PRECONDITION), fail-package
//                      (RegisterPackage answers UNAVAILABLE), loader
//                      (GetSchema answers UNAVAILABLE), empty-urn=NAME
//                      (the registration of NAME is answered with an
//                      empty URN), big-output=BYTES (every registration's
//                      outputs hold a string "big" of BYTES bytes),
//                      hang=NAME (the registration of NAME is never
//                      answered, while the engine stays alive),
//                      fail-exists (ExistsResource answers NOT_FOUND)
"use strict";

const fs = require("fs");
const grpc = require("@grpc/grpc-js");
const resproto = require("@pulumi/pulumi/proto/resource_pb.js");
const resrpc = require("@pulumi/pulumi/proto/resource_grpc_pb.js");
const engproto = require("@pulumi/pulumi/proto/engine_pb.js");
const engrpc = require("@pulumi/pulumi/proto/engine_grpc_pb.js");
const provproto = require("@pulumi/pulumi/proto/provider_pb.js");
const loaderproto = require("@pulumi/pulumi/proto/codegen/loader_pb.js");
const loaderrpc = require("@pulumi/pulumi/proto/codegen/loader_grpc_pb.js");
const emptyproto = require("google-protobuf/google/protobuf/empty_pb.js");
const structproto = require("google-protobuf/google/protobuf/struct_pb.js");

const args = process.argv.slice(2);
function opt(name) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
const portFile = opt("--port-file");
const recordFile = opt("--record");
const delay = Number(opt("--delay") || 0);
const oldMonitor = args.includes("--old-monitor");
const noParameterization = args.includes("--no-parameterization");
const perValueOutputs = args.includes("--per-value-outputs");
const fault = opt("--fault") || "";
const faultArg = fault.includes("=") ? fault.slice(fault.indexOf("=") + 1) : "";
const faultKind = fault.split("=")[0];
const forward = opt("--forward");
const forwardMonitor = forward
  ? new resrpc.ResourceMonitorClient(forward, grpc.credentials.createInsecure())
  : undefined;
const forwardEngine = forward
  ? new engrpc.EngineClient(forward, grpc.credentials.createInsecure())
  : undefined;

// Struct-typed fields of the requests, recorded as plain JSON values.
const structFields = ["object", "properties", "args", "outputs", "replacementTrigger"];

// Returns the request as a plain object: Struct fields as JSON values, map
// fields (toObject's [key, value] pairs, named ...Map) as objects.
function plain(msg) {
  const o = msg.toObject();
  for (const f of structFields) {
    const getter = "get" + f[0].toUpperCase() + f.slice(1);
    if (typeof msg[getter] === "function" && msg[getter]()) {
      o[f] = msg[getter]().toJavaScript();
    }
  }
  for (const k of Object.keys(o)) {
    if (k.endsWith("Map") && Array.isArray(o[k])) {
      const m = {};
      for (const [mk, mv] of o[k]) {
        m[mk] = mv && typeof mv === "object" && "urnsList" in mv ? mv.urnsList : mv;
      }
      o[k] = m;
    }
  }
  return o;
}

// Registrations received and not answered yet, recorded with each request.
let inflight = 0;
let recordFd = recordFile ? fs.openSync(recordFile, "a") : undefined;
// Records the request msg of method; answer (when given) is what the engine
// answered it, recorded as its "answer".
function record(method, msg, answer) {
  if (recordFd !== undefined) {
    const entry = { method, inflight, request: plain(msg) };
    if (answer !== undefined) {
      entry.answer = answer;
    }
    fs.writeSync(recordFd, JSON.stringify(entry) + "\n");
  }
}

// The qualified type of each URN the engine handed out, for children's URNs.
const qualified = new Map();
const project = opt("--project") || "project";
const stack = opt("--stack") || "dev";
const dryRun = args.includes("--preview");

function urnOf(type, name, parent) {
  let qtype = type;
  if (parent && qualified.has(parent) && !parent.includes("::pulumi:pulumi:Stack::")) {
    qtype = qualified.get(parent) + "$" + type;
  }
  const urn = `urn:pulumi:${stack}::${project}::${qtype}::${name}`;
  qualified.set(urn, qtype);
  return urn;
}

let registrations = 0;
let server;

// The custom resources registered, by "<type>::<id>": their inputs.
const created = new Map();

function existsResource(call, cb) {
  const req = call.request;
  record("ExistsResource", req);
  if (faultKind === "fail-exists") {
    cb({ code: grpc.status.NOT_FOUND, details: "the provider cannot read that type" });
    return;
  }
  const resp = new resproto.ExistsResourceResponse();
  const key = req.getType() + "::" + req.getId();
  let exists = created.has(key);
  if (exists && req.getProperties()) {
    const inputs = created.get(key) ? created.get(key).toJavaScript() : {};
    const state = req.getProperties().toJavaScript();
    exists = Object.keys(state).every(
      (k) => JSON.stringify(inputs[k]) === JSON.stringify(state[k]));
  }
  resp.setExists(exists);
  cb(null, resp);
}

function registerResource(call, cb) {
  const req = call.request;
  inflight++;
  record("RegisterResource", req);
  registrations++;
  if (faultKind === "close-after" && registrations >= Number(faultArg)) {
    // Drop every connection with this request in flight, as a crashed engine
    // would, once the earlier answers went out.
    setTimeout(() => {
      server.forceShutdown();
      process.exit(0);
    }, 100);
    return;
  }
  if (faultKind === "hang" && req.getName() === faultArg) {
    return;
  }
  if (faultKind === "unavailable") {
    inflight--;
    cb({ code: grpc.status.UNAVAILABLE, details: "the engine is shutting down" });
    return;
  }
  const resp = new resproto.RegisterResourceResponse();
  const emptyUrn = faultKind === "empty-urn" && req.getName() === faultArg;
  resp.setUrn(emptyUrn ? "" : urnOf(req.getType(), req.getName(), req.getParent()));
  if (req.getCustom() && !dryRun) {
    resp.setId(req.getName() + "_id");
    created.set(req.getType() + "::" + resp.getId(), req.getObject());
  }
  const object = req.getObject() || new structproto.Struct();
  if (faultKind === "big-output") {
    object.getFieldsMap().set("big", structproto.Value.fromJavaScript("x".repeat(Number(faultArg))));
  }
  resp.setObject(object);
  if (faultKind === "fail-register" && req.getName() === faultArg) {
    resp.setResult(resproto.Result.FAIL);
  }
  if (faultKind === "skip-register" && req.getName() === faultArg) {
    resp.setUnknown(true);
  }
  setTimeout(() => {
    inflight--;
    cb(null, resp);
  }, delay);
}

function readResource(call, cb) {
  const req = call.request;
  record("ReadResource", req);
  const resp = new resproto.ReadResourceResponse();
  resp.setUrn(urnOf(req.getType(), req.getName(), req.getParent()));
  resp.setProperties(req.getProperties() || new structproto.Struct());
  cb(null, resp);
}

function invoke(call, cb) {
  const req = call.request;
  record("Invoke", req);
  const resp = new resproto.ResourceInvokeResponse();
  if (faultKind === "fail-invoke") {
    const f = new provproto.CheckFailure();
    f.setProperty("value");
    f.setReason("the value is not allowed");
    resp.setFailuresList([f]);
  } else {
    resp.setReturn(req.getArgs() || new structproto.Struct());
  }
  cb(null, resp);
}

function callMethod(call, cb) {
  const req = call.request;
  record("Call", req);
  const ret = req.getArgs() ? req.getArgs().toJavaScript() : {};
  delete ret.__self__;
  const resp = new provproto.CallResponse();
  resp.setReturn(structproto.Struct.fromJavaScript(ret));
  cb(null, resp);
}

function empty(name) {
  return (call, cb) => {
    record(name, call.request);
    cb(null, new emptyproto.Empty());
  };
}

const monitor = {
  getDeploymentInfo(call, cb) {
    record("GetDeploymentInfo", call.request);
    if (oldMonitor) {
      cb({ code: grpc.status.UNIMPLEMENTED, details: "unknown method" });
      return;
    }
    const info = new resproto.DeploymentInfo();
    const F = resproto.ResourceMonitorFeature;
    const features = [
      F.RESOURCE_MONITOR_FEATURE_SECRETS,
      F.RESOURCE_MONITOR_FEATURE_RESOURCE_REFERENCES,
      F.RESOURCE_MONITOR_FEATURE_OUTPUT_VALUES,
      F.RESOURCE_MONITOR_FEATURE_ALIAS_SPECS,
      F.RESOURCE_MONITOR_FEATURE_DELETED_WITH,
      F.RESOURCE_MONITOR_FEATURE_BYTE_STRING,
    ];
    if (!noParameterization) {
      features.push(F.RESOURCE_MONITOR_FEATURE_PARAMETERIZATION);
    }
    info.setSupportedfeaturesList(features);
    if (perValueOutputs) {
      addPerValueOutputs(info);
    }
    info.setDryrun(dryRun);
    cb(null, info);
  },
  supportsFeature(call, cb) {
    record("SupportsFeature", call.request);
    const resp = new resproto.SupportsFeatureResponse();
    const supported = ["secrets", "resourceReferences", "outputValues", "aliasSpecs", "deletedWith"];
    if (!noParameterization) {
      supported.push("parameterization");
    }
    resp.setHassupport(supported.includes(call.request.getId()));
    cb(null, resp);
  },
  invoke,
  call: callMethod,
  readResource,
  registerResource,
  registerResourceOutputs: empty("RegisterResourceOutputs"),
  existsResource,
  registerPackage(call, cb) {
    if (faultKind === "fail-package") {
      record("RegisterPackage", call.request, null);
      cb({ code: grpc.status.UNAVAILABLE, details: "the package registry is down" });
      return;
    }
    const params = call.request.getParameterization() || call.request.getExtension$();
    const ref = (params ? params.getName() : call.request.getName()) + "-ref";
    record("RegisterPackage", call.request, { ref });
    const resp = new resproto.RegisterPackageResponse();
    resp.setRef(ref);
    cb(null, resp);
  },
  signalAndWaitForShutdown: empty("SignalAndWaitForShutdown"),
};

const engine = {
  log: empty("Log"),
  getRootResource(call, cb) {
    cb(null, new engproto.GetRootResourceResponse());
  },
  setRootResource(call, cb) {
    record("SetRootResource", call.request);
    cb(null, new engproto.SetRootResourceResponse());
  },
  requirePulumiVersion(call, cb) {
    record("RequirePulumiVersion", call.request);
    if (faultKind === "version") {
      cb({
        code: grpc.status.FAILED_PRECONDITION,
        details: `Pulumi CLI version 3.270.0 does not satisfy the version range "${call.request.getPulumiVersionRange()}"`,
      });
      return;
    }
    cb(null, new engproto.RequirePulumiVersionResponse());
  },
};

// Adds INVOKE_OUTPUT_VALUES and CALL_OUTPUT_VALUES to the features of the
// DeploymentInfo info (--per-value-outputs), also of a forwarded engine's.
function addPerValueOutputs(info) {
  const F = resproto.ResourceMonitorFeature;
  info.setSupportedfeaturesList(info.getSupportedfeaturesList().concat(
    [F.RESOURCE_MONITOR_FEATURE_INVOKE_OUTPUT_VALUES, F.RESOURCE_MONITOR_FEATURE_CALL_OUTPUT_VALUES]));
}

// Returns the handler that records the request under name and passes it to
// the forwarded engine's method, answering with what that engine answers; a
// RegisterPackage is recorded once answered, with the reference.
function forwarded(name, client, method) {
  return (call, cb) => {
    const answered = name === "RegisterPackage";
    if (!answered) {
      record(name, call.request);
    }
    client[method](call.request, (err, resp) => {
      if (answered) {
        record(name, call.request, err ? null : { ref: resp.getRef() });
      }
      if (err) {
        cb({ code: err.code, details: err.details });
      } else {
        if (name === "GetDeploymentInfo" && perValueOutputs) {
          addPerValueOutputs(resp);
        }
        cb(null, resp);
      }
    });
  };
}

if (forward) {
  // An old monitor answers what it supports itself, whatever the engine
  // behind it supports.
  const names = oldMonitor ? {} : {
    getDeploymentInfo: "GetDeploymentInfo",
    supportsFeature: "SupportsFeature",
  };
  Object.assign(names, {
    invoke: "Invoke",
    call: "Call",
    readResource: "ReadResource",
    registerResource: "RegisterResource",
    registerResourceOutputs: "RegisterResourceOutputs",
    registerPackage: "RegisterPackage",
    existsResource: "ExistsResource",
    signalAndWaitForShutdown: "SignalAndWaitForShutdown",
  });
  for (const [m, name] of Object.entries(names)) {
    monitor[m] = forwarded(name, forwardMonitor, m);
  }
  for (const [m, name] of Object.entries({
    log: "Log",
    setRootResource: "SetRootResource",
    requirePulumiVersion: "RequirePulumiVersion",
  })) {
    engine[m] = forwarded(name, forwardEngine, m);
  }
}

// The schema loader: the schema files of --loader DIR by package and version.
const loaderDir = opt("--loader");
function compareVersions(a, b) {
  const pa = a.split(/[.+-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  const pb = b.split(/[.+-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    if (pa[i] === undefined || pb[i] === undefined) return pa[i] === undefined ? -1 : 1;
    if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
  }
  return 0;
}
const loader = {
  getSchema(call, cb) {
    const req = call.request;
    record("GetSchema", req);
    if (faultKind === "loader") {
      cb({ code: grpc.status.UNAVAILABLE, details: "the schema registry is down" });
      return;
    }
    const param = req.getParameterization();
    const name = param ? param.getName() : req.getPackage();
    const version = param ? param.getVersion() : req.getVersion();
    const prefix = `${name}-`;
    const versions = fs.readdirSync(loaderDir)
      .filter((f) => f.startsWith(prefix) && f.endsWith(".json"))
      .map((f) => f.slice(prefix.length, -5))
      .filter((v) => /^\d/.test(v))
      .sort(compareVersions);
    const pick = version ? versions.find((v) => v === version) : versions[versions.length - 1];
    if (!pick) {
      cb({ code: grpc.status.NOT_FOUND, details: `no schema for ${name} ${version}` });
      return;
    }
    const resp = new loaderproto.GetSchemaResponse();
    resp.setSchema(fs.readFileSync(`${loaderDir}/${prefix}${pick}.json`));
    cb(null, resp);
  },
};

// The monitor's service, with RegisterResource's answers replaced by bytes
// that are not a message when asked to.
let monitorService = resrpc.ResourceMonitorService;
if (faultKind === "malformed") {
  monitorService = Object.assign({}, monitorService, {
    registerResource: Object.assign({}, monitorService.registerResource, {
      responseSerialize: () => Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]),
    }),
  });
}

server = new grpc.Server();
server.addService(monitorService, monitor);
server.addService(engrpc.EngineService, engine);
if (loaderDir) {
  server.addService(loaderrpc.LoaderService, loader);
}
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    console.error(`engine.js: cannot listen: ${err.message}`);
    process.exit(2);
  }
  if (portFile) {
    fs.writeFileSync(portFile + ".tmp", String(port));
    fs.renameSync(portFile + ".tmp", portFile);
  } else {
    console.log(port);
  }
});
// The test that started the engine ends it; a stray one ends by itself.
setTimeout(() => process.exit(3), 600000).unref();
process.on("SIGTERM", () => {
  if (recordFd !== undefined) {
    fs.closeSync(recordFd);
    recordFd = undefined;
  }
  process.exit(0);
});
