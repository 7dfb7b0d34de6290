/**
 * JSON Schemas (draft-07) of the Kubernetes objects the example's manifest
 * uses, written from the Kubernetes API reference (apps/v1 Deployment, v1
 * Service, core v1 PodSpec, Container, Probe, LifecycleHandler) for the
 * fields the manifest has and those near them. Only those: any other field
 * is refused (`additionalProperties: false`), so a misspelt or misplaced
 * field fails as `kubectl apply --validate=strict` would. Constraints the
 * API server enforces are kept where they are cheap to state: names
 * (DNS labels, IANA service names), env values as strings, one handler per
 * probe, a gRPC probe's port as a number, successThreshold 1 for liveness
 * and startup probes. Nothing is downloaded.
 */

/** A DNS-1123 label: a container name, a label value's usual form. */
const DNS_LABEL = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";
/** A DNS-1123 subdomain: object names. */
const DNS_SUBDOMAIN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";
/** A port name (IANA_SVC_NAME): at most 15 characters, a letter among them, no `--`. */
const PORT_NAME = "^(?!.*--)(?=.*[a-z])[a-z0-9]([-a-z0-9]*[a-z0-9])?$";
/** A label key: an optional DNS subdomain prefix and `/`, then a name of at most 63 characters. */
const LABEL_KEY = "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$";
/** A label value: at most 63 characters. */
const LABEL_VALUE = "^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$";
/** A resource quantity: `100m`, `128Mi`, `1`, `0.5`. */
const QUANTITY = "^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)(([KMGTPE]i)|[numkMGTPE]|([eE][+-]?\\d+))?$";

const definitions = {
  labels: {
    type: "object",
    propertyNames: { pattern: LABEL_KEY, maxLength: 317 },
    additionalProperties: { type: "string", pattern: LABEL_VALUE },
  },
  objectMeta: {
    type: "object",
    required: ["name"],
    additionalProperties: false,
    properties: {
      name: { type: "string", pattern: DNS_SUBDOMAIN, maxLength: 253 },
      namespace: { type: "string", pattern: DNS_LABEL, maxLength: 63 },
      labels: { $ref: "#/definitions/labels" },
      annotations: { type: "object", additionalProperties: { type: "string" } },
    },
  },
  /** A template's metadata: no name needed. */
  templateMeta: {
    type: "object",
    additionalProperties: false,
    properties: {
      labels: { $ref: "#/definitions/labels" },
      annotations: { type: "object", additionalProperties: { type: "string" } },
    },
  },
  intOrString: {
    anyOf: [
      { type: "integer", minimum: 0 },
      { type: "string", minLength: 1 },
    ],
  },
  /** A port by number or by the name of a container port. */
  portRef: {
    anyOf: [
      { type: "integer", minimum: 1, maximum: 65535 },
      { type: "string", pattern: PORT_NAME, maxLength: 15 },
    ],
  },
  httpGet: {
    type: "object",
    required: ["port"],
    additionalProperties: false,
    properties: {
      path: { type: "string", pattern: "^/" },
      port: { $ref: "#/definitions/portRef" },
      host: { type: "string" },
      scheme: { enum: ["HTTP", "HTTPS"] },
      httpHeaders: {
        type: "array",
        items: {
          type: "object",
          required: ["name", "value"],
          additionalProperties: false,
          properties: { name: { type: "string" }, value: { type: "string" } },
        },
      },
    },
  },
  tcpSocket: {
    type: "object",
    required: ["port"],
    additionalProperties: false,
    properties: { port: { $ref: "#/definitions/portRef" }, host: { type: "string" } },
  },
  exec: {
    type: "object",
    required: ["command"],
    additionalProperties: false,
    properties: { command: { type: "array", minItems: 1, items: { type: "string" } } },
  },
  probe: {
    type: "object",
    additionalProperties: false,
    properties: {
      httpGet: { $ref: "#/definitions/httpGet" },
      tcpSocket: { $ref: "#/definitions/tcpSocket" },
      exec: { $ref: "#/definitions/exec" },
      grpc: {
        type: "object",
        required: ["port"],
        additionalProperties: false,
        // GRPCAction.port is an int32: unlike httpGet and tcpSocket, no port name.
        properties: { port: { type: "integer", minimum: 1, maximum: 65535 }, service: { type: "string" } },
      },
      initialDelaySeconds: { type: "integer", minimum: 0 },
      periodSeconds: { type: "integer", minimum: 1 },
      timeoutSeconds: { type: "integer", minimum: 1 },
      successThreshold: { type: "integer", minimum: 1 },
      failureThreshold: { type: "integer", minimum: 1 },
      terminationGracePeriodSeconds: { type: "integer", minimum: 1 },
    },
    // Exactly one handler.
    oneOf: [{ required: ["httpGet"] }, { required: ["tcpSocket"] }, { required: ["exec"] }, { required: ["grpc"] }],
  },
  /** Liveness and startup probes must have successThreshold 1. */
  probeOnce: {
    allOf: [{ $ref: "#/definitions/probe" }, { type: "object", properties: { successThreshold: { const: 1 } } }],
  },
  lifecycleHandler: {
    type: "object",
    additionalProperties: false,
    properties: {
      exec: { $ref: "#/definitions/exec" },
      httpGet: { $ref: "#/definitions/httpGet" },
      tcpSocket: { $ref: "#/definitions/tcpSocket" },
      sleep: {
        type: "object",
        required: ["seconds"],
        additionalProperties: false,
        properties: { seconds: { type: "integer", minimum: 0 } },
      },
    },
    oneOf: [{ required: ["exec"] }, { required: ["httpGet"] }, { required: ["tcpSocket"] }, { required: ["sleep"] }],
  },
  envVar: {
    type: "object",
    required: ["name"],
    additionalProperties: false,
    properties: {
      name: { type: "string", minLength: 1 },
      // A string: `value: 8080` unquoted is refused by the API server.
      value: { type: "string" },
      valueFrom: {
        type: "object",
        additionalProperties: false,
        properties: {
          secretKeyRef: {
            type: "object",
            required: ["key"],
            additionalProperties: false,
            properties: { name: { type: "string" }, key: { type: "string" }, optional: { type: "boolean" } },
          },
          configMapKeyRef: {
            type: "object",
            required: ["key"],
            additionalProperties: false,
            properties: { name: { type: "string" }, key: { type: "string" }, optional: { type: "boolean" } },
          },
          fieldRef: {
            type: "object",
            required: ["fieldPath"],
            additionalProperties: false,
            properties: { apiVersion: { type: "string" }, fieldPath: { type: "string" } },
          },
        },
        minProperties: 1,
        maxProperties: 1,
      },
    },
    not: { required: ["value", "valueFrom"] },
  },
  containerPort: {
    type: "object",
    required: ["containerPort"],
    additionalProperties: false,
    properties: {
      name: { type: "string", pattern: PORT_NAME, maxLength: 15 },
      containerPort: { type: "integer", minimum: 1, maximum: 65535 },
      protocol: { enum: ["TCP", "UDP", "SCTP"] },
      hostPort: { type: "integer", minimum: 1, maximum: 65535 },
    },
  },
  resources: {
    type: "object",
    additionalProperties: false,
    properties: {
      requests: { type: "object", additionalProperties: { anyOf: [{ type: "string", pattern: QUANTITY }, { type: "number" }] } },
      limits: { type: "object", additionalProperties: { anyOf: [{ type: "string", pattern: QUANTITY }, { type: "number" }] } },
    },
  },
  seccompProfile: {
    type: "object",
    required: ["type"],
    additionalProperties: false,
    properties: { type: { enum: ["RuntimeDefault", "Unconfined", "Localhost"] }, localhostProfile: { type: "string" } },
  },
  securityContext: {
    type: "object",
    additionalProperties: false,
    properties: {
      allowPrivilegeEscalation: { type: "boolean" },
      privileged: { type: "boolean" },
      readOnlyRootFilesystem: { type: "boolean" },
      runAsNonRoot: { type: "boolean" },
      runAsUser: { type: "integer", minimum: 0 },
      runAsGroup: { type: "integer", minimum: 0 },
      capabilities: {
        type: "object",
        additionalProperties: false,
        properties: { add: { type: "array", items: { type: "string" } }, drop: { type: "array", items: { type: "string" } } },
      },
      seccompProfile: { $ref: "#/definitions/seccompProfile" },
    },
  },
  container: {
    type: "object",
    required: ["name"],
    additionalProperties: false,
    properties: {
      name: { type: "string", pattern: DNS_LABEL, maxLength: 63 },
      image: { type: "string", minLength: 1 },
      imagePullPolicy: { enum: ["Always", "IfNotPresent", "Never"] },
      command: { type: "array", items: { type: "string" } },
      args: { type: "array", items: { type: "string" } },
      workingDir: { type: "string" },
      env: { type: "array", items: { $ref: "#/definitions/envVar" } },
      ports: { type: "array", items: { $ref: "#/definitions/containerPort" } },
      readinessProbe: { $ref: "#/definitions/probe" },
      livenessProbe: { $ref: "#/definitions/probeOnce" },
      startupProbe: { $ref: "#/definitions/probeOnce" },
      lifecycle: {
        type: "object",
        additionalProperties: false,
        properties: { postStart: { $ref: "#/definitions/lifecycleHandler" }, preStop: { $ref: "#/definitions/lifecycleHandler" } },
      },
      resources: { $ref: "#/definitions/resources" },
      securityContext: { $ref: "#/definitions/securityContext" },
    },
  },
  podSpec: {
    type: "object",
    required: ["containers"],
    additionalProperties: false,
    properties: {
      containers: { type: "array", minItems: 1, items: { $ref: "#/definitions/container" } },
      terminationGracePeriodSeconds: { type: "integer", minimum: 0 },
      automountServiceAccountToken: { type: "boolean" },
      serviceAccountName: { type: "string", pattern: DNS_SUBDOMAIN },
      securityContext: {
        type: "object",
        additionalProperties: false,
        properties: {
          runAsNonRoot: { type: "boolean" },
          runAsUser: { type: "integer", minimum: 0 },
          runAsGroup: { type: "integer", minimum: 0 },
          fsGroup: { type: "integer", minimum: 0 },
          seccompProfile: { $ref: "#/definitions/seccompProfile" },
        },
      },
    },
  },
} as const;

/** apps/v1 Deployment. */
export const DEPLOYMENT_SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "anvil:k8s/apps/v1/Deployment",
  definitions,
  type: "object",
  required: ["apiVersion", "kind", "metadata", "spec"],
  additionalProperties: false,
  properties: {
    apiVersion: { const: "apps/v1" },
    kind: { const: "Deployment" },
    metadata: { $ref: "#/definitions/objectMeta" },
    spec: {
      type: "object",
      required: ["selector", "template"],
      additionalProperties: false,
      properties: {
        replicas: { type: "integer", minimum: 0 },
        minReadySeconds: { type: "integer", minimum: 0 },
        revisionHistoryLimit: { type: "integer", minimum: 0 },
        selector: {
          type: "object",
          required: ["matchLabels"],
          additionalProperties: false,
          properties: { matchLabels: { allOf: [{ $ref: "#/definitions/labels" }, { type: "object", minProperties: 1 }] } },
        },
        strategy: {
          type: "object",
          additionalProperties: false,
          properties: {
            type: { enum: ["RollingUpdate", "Recreate"] },
            rollingUpdate: {
              type: "object",
              additionalProperties: false,
              properties: { maxSurge: { $ref: "#/definitions/intOrString" }, maxUnavailable: { $ref: "#/definitions/intOrString" } },
            },
          },
        },
        template: {
          type: "object",
          required: ["metadata", "spec"],
          additionalProperties: false,
          properties: { metadata: { $ref: "#/definitions/templateMeta" }, spec: { $ref: "#/definitions/podSpec" } },
        },
      },
    },
  },
} as const;

/** v1 Service. */
export const SERVICE_SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "anvil:k8s/v1/Service",
  definitions,
  type: "object",
  required: ["apiVersion", "kind", "metadata", "spec"],
  additionalProperties: false,
  properties: {
    apiVersion: { const: "v1" },
    kind: { const: "Service" },
    metadata: { $ref: "#/definitions/objectMeta" },
    spec: {
      type: "object",
      required: ["ports"],
      additionalProperties: false,
      properties: {
        type: { enum: ["ClusterIP", "NodePort", "LoadBalancer", "ExternalName"] },
        selector: { $ref: "#/definitions/labels" },
        sessionAffinity: { enum: ["None", "ClientIP"] },
        ports: {
          type: "array",
          minItems: 1,
          items: {
            type: "object",
            required: ["port"],
            additionalProperties: false,
            properties: {
              name: { type: "string", pattern: DNS_LABEL, maxLength: 63 },
              port: { type: "integer", minimum: 1, maximum: 65535 },
              targetPort: { $ref: "#/definitions/portRef" },
              protocol: { enum: ["TCP", "UDP", "SCTP"] },
              appProtocol: { type: "string", minLength: 1 },
              nodePort: { type: "integer", minimum: 1, maximum: 65535 },
            },
          },
        },
      },
    },
  },
} as const;
