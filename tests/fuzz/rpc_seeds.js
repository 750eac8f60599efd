// rpc_seeds.js: writes seed inputs for fuzz_rpc into the folder given as its
// argument: the engine's answers to each call, built with @pulumi/pulumi's
// generated message code (run with tests/engine's packages installed).  An
// input is the call's index in PCL__RPC_METHODS (runtime/engine/rpc.h), one byte,
// then the packed answer.
"use strict";

const fs = require("fs");
const path = require("path");
const modules = path.join(__dirname, "..", "engine", "node_modules");
const resproto = require(path.join(modules, "@pulumi/pulumi/proto/resource_pb.js"));
const provproto = require(path.join(modules, "@pulumi/pulumi/proto/provider_pb.js"));
const structproto = require(path.join(modules, "google-protobuf/google/protobuf/struct_pb.js"));

const SIG = "4dabf18193072939515e22adb298388d";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const BYTES = "803fd3297a5875dc03ca845dda5d2a98";
// The calls' indexes in PCL__RPC_METHODS.
const M = { SUPPORTS_FEATURE: 0, DEPLOYMENT_INFO: 1, REGISTER: 2, READ: 3, INVOKE: 5, CALL: 6, PACKAGE: 7 };

const values = {
  plain: { s: "text", n: 1.5, i: 42, b: true, z: null, l: [1, "two", [3]], m: { k: { k2: "v" } } },
  secret: { s: { [SIG]: "1b47061264138c4ac30d75fd1eb44270", value: { inner: [1, 2] } } },
  ref: { r: { [SIG]: "5cf8f73096256a8f31e491e813e4eb8e", urn: "urn:pulumi:s::p::t:i:R::n", id: "x",
              packageVersion: "1.0.0" } },
  output: { o: { [SIG]: "d0e6a833031e9bbcd3f4e8bde6ca49a4", value: "v", secret: true,
                 dependencies: ["urn:pulumi:s::p::t:i:R::n"] },
            u: { [SIG]: "d0e6a833031e9bbcd3f4e8bde6ca49a4" } },
  assets: { a: { [SIG]: "c44067f5952c0a294b673a41bacd8c17", text: "hello" },
            r: { [SIG]: "0def7320c3a5731c473e5ecbe6d01bc7",
                 assets: { f: { [SIG]: "c44067f5952c0a294b673a41bacd8c17", path: "f.txt" } } } },
  unknown: { u: UNKNOWN, nested: [UNKNOWN, { x: UNKNOWN }] },
  // Byte strings (strings that are not UTF-8), alone and inside a secret
  // and an output value; "AGhl..." is NUL, "hello ", 80 fe ff, " world", f0 28.
  bytes: { b: { [SIG]: BYTES, value: "AGhlbGxvIID+/yB3b3JsZPAo" },
           e: { [SIG]: BYTES, value: "" },
           s: { [SIG]: "1b47061264138c4ac30d75fd1eb44270", value: { [SIG]: BYTES, value: "gP4=" } },
           o: { [SIG]: "d0e6a833031e9bbcd3f4e8bde6ca49a4", value: { [SIG]: BYTES, value: "/w==" },
                dependencies: ["urn:pulumi:s::p::t:i:R::n"] } },
};

const out = process.argv[2];
fs.mkdirSync(out, { recursive: true });
function write(name, method, msg) {
  fs.writeFileSync(path.join(out, name), Buffer.concat([Buffer.from([method]), Buffer.from(msg.serializeBinary())]));
}

for (const [name, v] of Object.entries(values)) {
  const reg = new resproto.RegisterResourceResponse();
  reg.setUrn("urn:pulumi:s::p::t:i:R::n");
  reg.setId("id-1");
  reg.setObject(structproto.Struct.fromJavaScript(v));
  write(`register-${name}`, M.REGISTER, reg);
  const read = new resproto.ReadResourceResponse();
  read.setUrn("urn:pulumi:s::p::t:i:R::n");
  read.setProperties(structproto.Struct.fromJavaScript(v));
  write(`read-${name}`, M.READ, read);
  const inv = new resproto.ResourceInvokeResponse();
  inv.setReturn(structproto.Struct.fromJavaScript(v));
  write(`invoke-${name}`, M.INVOKE, inv);
  const call = new provproto.CallResponse();
  call.setReturn(structproto.Struct.fromJavaScript(v));
  write(`call-${name}`, M.CALL, call);
}
const failed = new resproto.RegisterResourceResponse();
failed.setUrn("urn:pulumi:s::p::t:i:R::n");
failed.setResult(resproto.Result.FAIL);
write("register-failed", M.REGISTER, failed);
const cf = new provproto.CheckFailure();
cf.setProperty("p");
cf.setReason("bad");
const invf = new resproto.ResourceInvokeResponse();
invf.setFailuresList([cf]);
write("invoke-failures", M.INVOKE, invf);
const info = new resproto.DeploymentInfo();
info.setSupportedfeaturesList([0, 1, 2, 3, 5, 13]);
info.setProject("p");
write("deployment-info", M.DEPLOYMENT_INFO, info);
const sf = new resproto.SupportsFeatureResponse();
sf.setHassupport(true);
write("supports-feature", M.SUPPORTS_FEATURE, sf);
const pkg = new resproto.RegisterPackageResponse();
pkg.setRef("ref");
write("register-package", M.PACKAGE, pkg);
