// samples/kubernetes as a Node.js program for @pulumi/pulumi (the
// differential test, ./run).
"use strict";
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config();
const appName = config.get("appName") || "storefront";
const image = config.get("image") || "nginx:1.25-alpine";
const replicas = config.getNumber("replicas") || 2;
const containerPort = config.getNumber("containerPort") || 8080;
const serviceType = config.get("serviceType") || "ClusterIP";
const env = config.getObject("env") || { LOG_LEVEL: "info", CACHE_TTL: "300" };

const labels = {
  "app.kubernetes.io/name": appName,
  "app.kubernetes.io/instance": `${appName}-${pulumi.getStack()}`,
  "app.kubernetes.io/managed-by": "pclc",
};

const k8s = { version: "4.0.0" };
const resource = (type, name, props) => new pulumi.CustomResource(type, name, props, k8s);

const ns = resource("kubernetes:core/v1:Namespace", "ns", {
  metadata: { name: `${appName}-${pulumi.getStack()}`, labels },
});
const nsName = ns.metadata.apply((m) => m.name);

const appConfig = resource("kubernetes:core/v1:ConfigMap", "appConfig", {
  metadata: { name: `${appName}-env`, namespace: nsName, labels },
  data: env,
});

const deployment = resource("kubernetes:apps/v1:Deployment", "deployment", {
  metadata: { name: appName, namespace: nsName, labels },
  spec: {
    replicas,
    selector: { matchLabels: labels },
    template: {
      metadata: {
        labels,
        annotations: { "example.com/config-map": appConfig.metadata.apply((m) => m.name) },
      },
      spec: {
        containers: [
          {
            name: appName,
            image,
            ports: [{ name: "http", containerPort }],
            // PCL iterates a map in key order.
            env: Object.keys(env)
              .sort()
              .map((k) => ({ name: k, value: env[k] })),
            resources: {
              requests: { cpu: "100m", memory: "128Mi" },
              limits: { cpu: "500m", memory: "256Mi" },
            },
          },
        ],
      },
    },
  },
});

const service = resource("kubernetes:core/v1:Service", "service", {
  metadata: { name: appName, namespace: nsName, labels },
  spec: {
    type: serviceType,
    selector: labels,
    ports: [{ name: "http", port: 80, targetPort: containerPort, protocol: "TCP" }],
  },
});

exports.namespace = nsName;
exports.image = deployment.spec.apply((s) => s.template.spec.containers[0].image);
exports.url = pulumi.interpolate`http://${service.metadata.apply((m) => m.name)}.${nsName}.svc.cluster.local`;
