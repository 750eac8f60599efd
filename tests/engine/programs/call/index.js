// index.js: main.pp written for the Node.js SDK, as its generated SDKs
// would write it (tests/engine/wire compares the Call requests of both):
// the component is remote, a method call passes the component as __self__.
"use strict";

const pulumi = require("@pulumi/pulumi");

const custom = new pulumi.CustomResource(
  "component-property-deps:index:Custom",
  "custom",
  { value: "hello-" },
  { version: "1.33.7" }
);
const callable = new pulumi.ComponentResource(
  "component:index:ComponentCallable",
  "callable",
  { value: "bar" },
  { version: "13.3.7" },
  true
);

function prefixed(prefix) {
  return pulumi.runtime
    .call("component:index:ComponentCallable/prefixed", { __self__: callable, prefix }, callable)
    .apply((r) => r.result);
}

exports.fromDependency = prefixed(custom.value);
exports.fromSecret = prefixed(pulumi.secret("secret-"));
exports.fromPlain = prefixed("plain-");
