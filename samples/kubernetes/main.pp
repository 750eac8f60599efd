# A web application on Kubernetes: a namespace per stack, a config map with
# the application's environment, a deployment running the container and a
# service in front of it.

config appName string {
  default = "storefront"
}

config image string {
  default     = "nginx:1.25-alpine"
  description = "Container image of the application"
}

config replicas int {
  default = 2
}

config containerPort int {
  default = 8080
}

config serviceType string {
  default = "ClusterIP"
}

config "env" "map(string)" {
  default = {
    LOG_LEVEL = "info"
    CACHE_TTL = "300"
  }
}

labels = {
  "app.kubernetes.io/name"       = appName
  "app.kubernetes.io/instance"   = "${appName}-${stack()}"
  "app.kubernetes.io/managed-by" = "pclc"
}

resource ns "kubernetes:core/v1:Namespace" {
  metadata = {
    name   = "${appName}-${stack()}"
    labels = labels
  }
}

resource appConfig "kubernetes:core/v1:ConfigMap" {
  metadata = {
    name      = "${appName}-env"
    namespace = ns.metadata.name
    labels    = labels
  }
  data = env
}

resource deployment "kubernetes:apps/v1:Deployment" {
  metadata = {
    name      = appName
    namespace = ns.metadata.name
    labels    = labels
  }
  spec = {
    replicas = replicas
    selector = {
      matchLabels = labels
    }
    template = {
      metadata = {
        labels = labels
        annotations = {
          "example.com/config-map" = appConfig.metadata.name
        }
      }
      spec = {
        containers = [{
          name  = appName
          image = image
          ports = [{
            name          = "http"
            containerPort = containerPort
          }]
          env = [for k, v in env : {
            name  = k
            value = v
          }]
          resources = {
            requests = { cpu = "100m", memory = "128Mi" }
            limits   = { cpu = "500m", memory = "256Mi" }
          }
        }]
      }
    }
  }
}

resource service "kubernetes:core/v1:Service" {
  metadata = {
    name      = appName
    namespace = ns.metadata.name
    labels    = labels
  }
  spec = {
    type     = serviceType
    selector = labels
    ports = [{
      name       = "http"
      port       = 80
      targetPort = containerPort
      protocol   = "TCP"
    }]
  }
}

output namespace {
  value = ns.metadata.name
}

output image {
  value = deployment.spec.template.spec.containers[0].image
}

output url {
  value = "http://${service.metadata.name}.${ns.metadata.name}.svc.cluster.local"
}
