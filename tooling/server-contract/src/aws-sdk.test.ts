/**
 * Interop with peers nobody here wrote: the official AWS SDK for JavaScript
 * v3 clients call Anvil servers built at run time from our own minimal
 * models of the services (`aws-models.ts`), over a loopback socket. The SDK
 * signs with SigV4, which the servers verify (`sigv4Verifier` from
 * `@anvil/auth-sigv4`, the signature computed again by `@smithy/signature-v4`
 * from the request as received), sends its user agent and its own headers,
 * and reads the answers with its own schemas: outputs, typed modeled
 * exceptions and the server's ValidationException are asserted as an SDK
 * user sees them.
 */
import {
  DescribeTableCommand,
  DynamoDBClient,
  DynamoDBServiceException,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  ResourceNotFoundException as DynamoNotFound,
} from "@aws-sdk/client-dynamodb";
import {
  CloudWatchClient,
  CloudWatchServiceException,
  DashboardNotFoundError,
  GetDashboardCommand,
  InvalidParameterValueException,
  ListMetricsCommand,
  PutMetricDataCommand,
} from "@aws-sdk/client-cloudwatch";
import { AwsSmithyRpcV2CborProtocol } from "@aws-sdk/core/protocols";
import { createHash, createHmac, type Hash, type Hmac } from "node:crypto";
import { NodeHttp2Handler } from "@smithy/node-http-handler";
import { SignatureV4 } from "@smithy/signature-v4";
import {
  GetFunctionCommand,
  LambdaClient,
  LambdaServiceException,
  ListFunctionsCommand,
  ResourceNotFoundException as LambdaNotFound,
} from "@aws-sdk/client-lambda";
import {
  DescribeServicesCommand,
  GetAttributeValuesCommand,
  NotFoundException as PricingNotFound,
  PricingClient,
  PricingServiceException,
} from "@aws-sdk/client-pricing";
import {
  InternalStreamFailure,
  InvokeEndpointCommand,
  InvokeEndpointWithResponseStreamCommand,
  ModelError,
  ModelStreamError,
  SageMakerRuntimeClient,
  SageMakerRuntimeServiceException,
  ValidationError as SageMakerValidationError,
} from "@aws-sdk/client-sagemaker-runtime";
import {
  ApiGatewayManagementApiClient,
  ApiGatewayManagementApiServiceException,
  DeleteConnectionCommand,
  GetConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from "@aws-sdk/client-apigatewaymanagementapi";
import {
  LimitExceededException,
  StartStreamTranscriptionCommand,
  TranscribeStreamingClient,
  TranscribeStreamingServiceException,
  type AudioStream,
} from "@aws-sdk/client-transcribe-streaming";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Readable } from "node:stream";
import { sigv4, sigv4Verifier } from "@anvil/auth-sigv4";
import { createClient } from "@anvil/client-core";
import { http2Transport } from "@anvil/client-core/node";
import { decodeEventMessage, encodeEventMessage, splitFrames } from "@anvil/eventstream";
import { type FakeServe, startFakeServe } from "@anvil/codegen";
import { errorClass, type ServiceSchema, type StructSchema, type UnionValue } from "@anvil/core";
import { schemasFromModel } from "@anvil/dynamic";
import { hasErrors, loadModel } from "@anvil/model";
import { awsJson1_0, awsJson1_1 } from "@anvil/protocol-awsjson";
import { restJson1 } from "@anvil/protocol-restjson";
import { rpcv2Cbor } from "@anvil/protocol-rpcv2cbor";
import { createServer, type HandlerContext } from "@anvil/server";
import { listen, type NodeListener } from "@anvil/server/node";
import {
  APIGATEWAY_MANAGEMENT_MODEL,
  CLOUDWATCH_MODEL,
  DYNAMODB_MODEL,
  LAMBDA_MODEL,
  PRICING_MODEL,
  SAGEMAKER_RUNTIME_MODEL,
  TRANSCRIBE_STREAMING_MODEL,
} from "./aws-models.js";

// The SDK warns once per process that its later versions will need Node 22; not this test's concern.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

/** The schemas of one of our models, failing loudly if it does not load cleanly. */
function schemasOf(file: string, text: string) {
  const { model, events } = loadModel({ sources: [{ file, text }] });
  expect(hasErrors(events), events.map((e) => e.message).join("\n")).toBe(false);
  return schemasFromModel(model);
}

/** SHA-256 and HMAC-SHA-256 for `@smithy/signature-v4`, on node:crypto (as the SDK's own hash does). */
class Sha256 {
  readonly #hash: Hash | Hmac;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.#hash = secret === undefined ? createHash("sha256") : createHmac("sha256", bytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.#hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.#hash.digest());
  }
}

function bytes(data: string | ArrayBuffer | ArrayBufferView): string | Uint8Array {
  if (typeof data === "string") return data;
  return data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** The whole frames in a chunk of an event-stream body (the SDK writes one signed envelope at a time). */
async function frames(chunk: Uint8Array): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const frame of splitFrames(chunk)) out.push(frame);
  return out;
}

/** The one access key the servers know. */
const CREDENTIALS = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" } as const;

/** What every SDK client here is given: a loopback endpoint, fixed region and credentials, no retries. */
function sdkConfig(listener: NodeListener, credentials: { accessKeyId: string; secretAccessKey: string } = CREDENTIALS) {
  return { endpoint: listener.url, region: "eu-west-1", credentials, maxAttempts: 1 } as const;
}

/** Calls whose SigV4 signature a server verified, by access key. */
const verified: string[] = [];

/**
 * An Anvil server for one of our models on a loopback port: the handlers, the protocols, SigV4 verified
 * (region eu-west-1, the service's signing name), unmodeled errors not logged.
 */
function serve(
  service: ServiceSchema,
  protocols: Parameters<typeof createServer>[1]["protocols"],
  handlers: Record<string, Handler>,
  options: { http2?: boolean | "both" } = {},
): Promise<NodeListener> {
  const sigv4 = sigv4Verifier({
    region: "eu-west-1",
    secretOf: (accessKeyId) => (accessKeyId === CREDENTIALS.accessKeyId ? CREDENTIALS.secretAccessKey : undefined),
    identify: (accessKeyId) => {
      verified.push(accessKeyId);
      return { accessKeyId };
    },
  });
  const server = createServer(service, { protocols, onInternalError: () => {}, auth: { schemes: [sigv4] } })
    .register(handlers as never)
    .mapService();
  return listen(server, options);
}

/** The rejection of a promise (failing if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => expect.fail(`expected an error, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

type AttributeValue = Record<string, unknown>;
type Handler = (input: Record<string, unknown>, context: HandlerContext) => Promise<Record<string, unknown>>;

describe("@aws-sdk/client-dynamodb (awsJson1_0) against an Anvil server", () => {
  const schemas = schemasOf("dynamodb.smithy", DYNAMODB_MODEL);
  const service = schemas.service("com.amazonaws.dynamodb#DynamoDB_20120810");
  const NotFound = errorClass(schemas.shape("com.amazonaws.dynamodb#ResourceNotFoundException") as StructSchema<{ message?: string }>);
  const tables = new Map<string, Map<string, Record<string, AttributeValue>>>([["Books", new Map()]]);
  const seen: { target?: string | null; authorization?: string | null; userAgent?: string | null } = {};
  const table = (name: unknown) => {
    const items = tables.get(name as string);
    if (!items) throw new NotFound({ message: `Requested resource not found: Table: ${String(name)} not found` });
    return items;
  };
  const handlers: Record<string, Handler> = {
    async describeTable(input, context) {
      seen.target = context.headers.get("x-amz-target");
      seen.authorization = context.headers.get("authorization");
      seen.userAgent = context.headers.get("user-agent");
      const items = table(input.TableName);
      return {
        Table: {
          TableName: input.TableName,
          TableStatus: "ACTIVE",
          CreationDateTime: new Date("2024-05-01T10:20:30.500Z"),
          ItemCount: BigInt(items.size),
          KeySchema: [{ AttributeName: "isbn", KeyType: "HASH" }],
        },
      };
    },
    async putItem(input) {
      const item = input.Item as Record<string, AttributeValue>;
      table(input.TableName).set(JSON.stringify(item.isbn), item);
      return {};
    },
    async getItem(input) {
      const key = input.Key as Record<string, AttributeValue>;
      const item = table(input.TableName).get(JSON.stringify(key.isbn));
      return item ? { Item: item } : {};
    },
    async listTables(input) {
      const names = [...tables.keys()].sort().filter((n) => input.ExclusiveStartTableName === undefined || n > (input.ExclusiveStartTableName as string));
      const limit = (input.Limit as number | undefined) ?? 100;
      return { TableNames: names.slice(0, limit), ...(names.length > limit ? { LastEvaluatedTableName: names[limit - 1] } : {}) };
    },
  };
  let listener: NodeListener;
  let client: DynamoDBClient;

  beforeAll(async () => {
    listener = await serve(service, [awsJson1_0()], handlers);
    client = new DynamoDBClient({ ...sdkConfig(listener), endpointDiscoveryEnabled: false, accountIdEndpointMode: "disabled" });
  });
  afterAll(async () => {
    client.destroy();
    await listener.close({ graceMs: 100 });
  });

  it("describes a table: a signed call, a timestamp, a long and an enum", async () => {
    const out = await client.send(new DescribeTableCommand({ TableName: "Books" }));
    expect(out.Table).toEqual({
      TableName: "Books",
      TableStatus: "ACTIVE",
      CreationDateTime: new Date("2024-05-01T10:20:30.500Z"),
      ItemCount: 0,
      KeySchema: [{ AttributeName: "isbn", KeyType: "HASH" }],
    });
    expect(out.$metadata.httpStatusCode).toBe(200);
    expect(seen.target).toBe("DynamoDB_20120810.DescribeTable");
    expect(seen.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/dynamodb\/aws4_request/);
    expect(seen.userAgent).toMatch(/aws-sdk-js/);
  });

  it("puts and gets an item of every AttributeValue variant (a union, nested)", async () => {
    const item = {
      isbn: { S: "978-0441478125" },
      title: { S: "The Left Hand of Darkness" },
      year: { N: "1969" },
      cover: { B: new Uint8Array([0, 1, 2, 253, 254, 255]) },
      inPrint: { BOOL: true },
      series: { NULL: true },
      tags: { SS: ["fiction", "classic"] },
      ratings: { NS: ["4.5", "5"] },
      blobs: { BS: [new Uint8Array([1]), new Uint8Array([2, 3])] },
      awards: { L: [{ S: "Hugo" }, { M: { year: { N: "1970" }, name: { S: "Nebula" } } }] },
    };
    await client.send(new PutItemCommand({ TableName: "Books", Item: item }));
    const out = await client.send(new GetItemCommand({ TableName: "Books", Key: { isbn: { S: "978-0441478125" } }, ConsistentRead: true }));
    expect(out.Item).toEqual(item);
    const missing = await client.send(new GetItemCommand({ TableName: "Books", Key: { isbn: { S: "none" } } }));
    expect(missing.Item).toBeUndefined();
    expect((await client.send(new DescribeTableCommand({ TableName: "Books" }))).Table?.ItemCount).toBe(1);
  });

  it("lists tables", async () => {
    tables.set("Authors", new Map());
    const out = await client.send(new ListTablesCommand({ Limit: 1 }));
    expect(out.TableNames).toEqual(["Authors"]);
    expect(out.LastEvaluatedTableName).toBe("Authors");
    const rest = await client.send(new ListTablesCommand({ ExclusiveStartTableName: "Authors" }));
    expect(rest.TableNames).toEqual(["Books"]);
    expect(rest.LastEvaluatedTableName).toBeUndefined();
  });

  it("surfaces a modeled error as the SDK's typed ResourceNotFoundException", async () => {
    const error = await rejection(client.send(new DescribeTableCommand({ TableName: "Films" })));
    expect(error).toBeInstanceOf(DynamoNotFound);
    const e = error as DynamoNotFound;
    expect(e.name).toBe("ResourceNotFoundException");
    expect(e.message).toBe("Requested resource not found: Table: Films not found");
    expect(e.$fault).toBe("client");
    expect(e.$metadata.httpStatusCode).toBe(400);
  });

  it("surfaces a constraint violation as a ValidationException naming the field", async () => {
    const error = await rejection(client.send(new ListTablesCommand({ Limit: 0 })));
    expect(error).toBeInstanceOf(DynamoDBServiceException);
    const e = error as DynamoDBServiceException;
    expect(e.name).toBe("ValidationException");
    expect(e.message).toMatch(/Limit/);
    expect(e.$metadata.httpStatusCode).toBe(400);
    const pattern = await rejection(client.send(new GetItemCommand({ TableName: "no spaces!", Key: {} })));
    expect((pattern as DynamoDBServiceException).name).toBe("ValidationException");
    expect((pattern as DynamoDBServiceException).message).toMatch(/TableName/);
  });
});

// The cleartext HTTP/2 listener speaks nothing else, so a call that succeeds there went over h2.
describe.each([
  { transport: "HTTP/1.1", http2: false },
  { transport: "cleartext HTTP/2 (the SDK's NodeHttp2Handler)", http2: true },
])("@aws-sdk/client-lambda (restJson1) against an Anvil server over $transport", ({ http2 }) => {
  const schemas = schemasOf("lambda.smithy", LAMBDA_MODEL);
  const service = schemas.service("com.amazonaws.lambda#AWSGirApiService");
  const NotFound = errorClass(schemas.shape("com.amazonaws.lambda#ResourceNotFoundException") as StructSchema<{ Type?: string; Message?: string }>);
  const functions = ["hello", "world", "again"].map((name, i) => ({
    FunctionName: name,
    FunctionArn: `arn:aws:lambda:eu-west-1:123456789012:function:${name}`,
    Runtime: i % 2 === 0 ? "nodejs20.x" : "python3.12",
    Handler: "index.handler",
    CodeSize: BigInt(1024 * (i + 1)),
    Timeout: 3,
    MemorySize: 128,
    Version: "$LATEST",
    Architectures: ["arm64"],
  }));
  const seen: { query?: Record<string, unknown> } = {};
  const handlers: Record<string, Handler> = {
    async listFunctions(input) {
      seen.query = input;
      const start = input.Marker === undefined ? 0 : Number(input.Marker);
      const end = start + ((input.MaxItems as number | undefined) ?? 50);
      return { Functions: functions.slice(start, end), ...(end < functions.length ? { NextMarker: String(end) } : {}) };
    },
    async getFunction(input) {
      const fn = functions.find((f) => f.FunctionName === input.FunctionName || f.FunctionArn === input.FunctionName);
      if (!fn) throw new NotFound({ Type: "User", Message: `Function not found: ${String(input.FunctionName)}` });
      return {
        Configuration: { ...fn, Version: (input.Qualifier as string | undefined) ?? fn.Version },
        Code: { RepositoryType: "S3", Location: `https://example.invalid/${fn.FunctionName}.zip` },
        Tags: { team: "anvil", "cost center": "42" },
      };
    },
  };
  let listener: NodeListener;
  let client: LambdaClient;

  beforeAll(async () => {
    listener = await serve(service, [restJson1()], handlers, { http2 });
    client = new LambdaClient({ ...sdkConfig(listener), ...(http2 ? { requestHandler: new NodeHttp2Handler({ disableConcurrentStreams: false }) } : {}) });
  });
  afterAll(async () => {
    client.destroy();
    await listener.close({ graceMs: 100 });
  });

  it("verifies the SDK's SigV4 signature, and refuses a client with the wrong secret (401, which the SDK names)", async () => {
    const before = verified.length;
    await client.send(new GetFunctionCommand({ FunctionName: "hello" }));
    expect(verified.slice(before)).toEqual(["AKIDEXAMPLE"]);
    const wrong = new LambdaClient({
      ...sdkConfig(listener, { ...CREDENTIALS, secretAccessKey: "not-the-secret" }),
      ...(http2 ? { requestHandler: new NodeHttp2Handler({ disableConcurrentStreams: false }) } : {}),
    });
    try {
      const error = await rejection(wrong.send(new GetFunctionCommand({ FunctionName: "hello" })));
      expect(error).toBeInstanceOf(LambdaServiceException);
      expect([(error as LambdaServiceException).name, (error as LambdaServiceException).$metadata.httpStatusCode]).toEqual(["UnauthenticatedException", 401]);
    } finally {
      wrong.destroy();
    }
  });

  // Over HTTP/1.1 only: fetch speaks nothing else.
  if (!http2)
    it("verifies a URL presigned with the SDK's signer until it expires, and refuses it tampered", async () => {
      const signer = new SignatureV4({ service: "lambda", region: "eu-west-1", credentials: CREDENTIALS, sha256: Sha256 });
      const url = new URL(listener.url);
      const presign = (expiresIn: number) =>
        signer.presign(
          {
            method: "GET",
            protocol: "http:",
            hostname: url.hostname,
            port: Number(url.port),
            path: "/2015-03-31/functions/world",
            query: {},
            headers: { host: url.host },
          },
          { expiresIn },
        );
      const target = (request: Awaited<ReturnType<typeof presign>>) =>
        `${listener.url}${request.path}?${Object.entries(request.query!)
          .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
          .join("&")}`;
      const good = await fetch(target(await presign(60)));
      expect([good.status, ((await good.json()) as { Configuration: { FunctionName: string } }).Configuration.FunctionName]).toEqual([200, "world"]);
      const tampered = await fetch(target(await presign(60)).replace("/functions/world", "/functions/hello"));
      expect(tampered.status).toBe(401);
      await tampered.arrayBuffer();
    });

  it("lists functions page by page: query parameters, longs, enums and lists", async () => {
    const first = await client.send(new ListFunctionsCommand({ MaxItems: 2, FunctionVersion: "ALL" }));
    expect(seen.query).toEqual({ MaxItems: 2, FunctionVersion: "ALL" });
    expect(first.Functions?.map((f) => f.FunctionName)).toEqual(["hello", "world"]);
    expect(first.Functions?.[1]).toEqual({ ...functions[1], CodeSize: 2048 });
    expect(first.NextMarker).toBe("2");
    const second = await client.send(new ListFunctionsCommand({ MaxItems: 2, Marker: first.NextMarker }));
    expect(second.Functions?.map((f) => f.FunctionName)).toEqual(["again"]);
    expect(second.NextMarker).toBeUndefined();
  });

  it("gets a function by a label that needs percent-encoding, with a qualifier and a map", async () => {
    const arn = "arn:aws:lambda:eu-west-1:123456789012:function:world";
    const out = await client.send(new GetFunctionCommand({ FunctionName: arn, Qualifier: "7" }));
    expect(out.Configuration?.FunctionArn).toBe(arn);
    expect(out.Configuration?.Version).toBe("7");
    expect(out.Configuration?.Runtime).toBe("python3.12");
    expect(out.Code).toEqual({ RepositoryType: "S3", Location: "https://example.invalid/world.zip" });
    expect(out.Tags).toEqual({ team: "anvil", "cost center": "42" });
  });

  it("surfaces a modeled @httpError(404) as the SDK's typed ResourceNotFoundException", async () => {
    const error = await rejection(client.send(new GetFunctionCommand({ FunctionName: "nope" })));
    expect(error).toBeInstanceOf(LambdaNotFound);
    const e = error as LambdaNotFound;
    expect(e.name).toBe("ResourceNotFoundException");
    expect(e.Type).toBe("User");
    // The SDK folds the modeled `Message` member into the exception's `message`.
    expect(e.message).toBe("Function not found: nope");
    expect(e.$metadata.httpStatusCode).toBe(404);
  });

  it("surfaces a constraint violation as a ValidationException naming the field", async () => {
    const error = await rejection(client.send(new ListFunctionsCommand({ MaxItems: 0 })));
    expect(error).toBeInstanceOf(LambdaServiceException);
    const e = error as LambdaServiceException;
    expect(e.name).toBe("ValidationException");
    expect(e.message).toMatch(/MaxItems/);
    expect(e.$metadata.httpStatusCode).toBe(400);
  });
});

describe("@aws-sdk/client-cloudwatch (awsJson1_0 query-compatible, and rpcv2Cbor) against one Anvil server", () => {
  const schemas = schemasOf("cloudwatch.smithy", CLOUDWATCH_MODEL);
  const service = schemas.service("com.amazonaws.cloudwatch#GraniteServiceVersion20100801");
  const NotFound = errorClass(schemas.shape("com.amazonaws.cloudwatch#DashboardNotFoundError") as StructSchema<{ message?: string }>);
  const InvalidValue = errorClass(schemas.shape("com.amazonaws.cloudwatch#InvalidParameterValueException") as StructSchema<{ message?: string }>);
  type Datum = { MetricName: string; Dimensions?: { Name: string; Value: string }[]; Timestamp?: Date; Value?: number; Values?: number[]; Unit?: string };
  const stored: { namespace: string; datum: Datum }[] = [];
  const protocolsSeen: string[] = [];
  const handlers: Record<string, Handler> = {
    async putMetricData(input, context) {
      protocolsSeen.push(context.protocol);
      for (const datum of (input.MetricData as Datum[] | undefined) ?? []) {
        if (datum.Unit === "Count" && (datum.Value ?? 0) < 0)
          throw new InvalidValue({ message: `The value ${datum.Value} for ${datum.MetricName} is negative` });
        stored.push({ namespace: input.Namespace as string, datum });
      }
      return {};
    },
    async listMetrics(input, context) {
      protocolsSeen.push(context.protocol);
      const metrics = stored
        .filter(
          ({ namespace, datum }) =>
            (input.Namespace === undefined || namespace === input.Namespace) && (input.MetricName === undefined || datum.MetricName === input.MetricName),
        )
        .map(({ namespace, datum }) => ({ Namespace: namespace, MetricName: datum.MetricName, ...(datum.Dimensions ? { Dimensions: datum.Dimensions } : {}) }));
      return { Metrics: metrics };
    },
    async getDashboard(input) {
      if (input.DashboardName !== "main") throw new NotFound({ message: `Dashboard ${String(input.DashboardName)} does not exist` });
      return { DashboardName: "main", DashboardArn: "arn:aws:cloudwatch::123456789012:dashboard/main", DashboardBody: '{"widgets":[]}' };
    },
  };
  let listener: NodeListener;

  beforeAll(async () => {
    listener = await serve(service, [awsJson1_0(), rpcv2Cbor()], handlers);
  });
  afterAll(async () => {
    await listener.close({ graceMs: 100 });
  });

  describe.each([
    { name: "awsJson1_0 (the SDK's default)", protocol: "aws.protocols#awsJson1_0", config: {} },
    {
      name: "rpcv2Cbor",
      protocol: "smithy.protocols#rpcv2Cbor",
      config: { protocol: new AwsSmithyRpcV2CborProtocol({ defaultNamespace: "com.amazonaws.cloudwatch", awsQueryCompatible: true }) },
    },
  ])("over $name", ({ protocol, config }) => {
    let client: CloudWatchClient;
    const namespace = `Anvil/${protocol.split("#")[1]}`;
    beforeAll(() => {
      client = new CloudWatchClient({ ...sdkConfig(listener), ...config });
    });
    afterAll(() => client.destroy());

    it("puts metric data (doubles, a timestamp, an enum) and lists the metrics back", async () => {
      protocolsSeen.length = 0;
      const out = await client.send(
        new PutMetricDataCommand({
          Namespace: namespace,
          MetricData: [
            {
              MetricName: "Latency",
              Dimensions: [{ Name: "Route", Value: "/books" }],
              Timestamp: new Date("2024-05-01T10:20:30.250Z"),
              Value: 12.5,
              Unit: "Seconds",
            },
            { MetricName: "Requests", Values: [1, 2.5, 1e300], Unit: "Count" },
          ],
        }),
      );
      expect(out.$metadata.httpStatusCode).toBe(200);
      const latency = stored.find((s) => s.namespace === namespace && s.datum.MetricName === "Latency")?.datum;
      expect(latency).toEqual({
        MetricName: "Latency",
        Dimensions: [{ Name: "Route", Value: "/books" }],
        Timestamp: new Date("2024-05-01T10:20:30.250Z"),
        Value: 12.5,
        Unit: "Seconds",
      });
      const listed = await client.send(new ListMetricsCommand({ Namespace: namespace }));
      expect(listed.Metrics).toEqual([
        { Namespace: namespace, MetricName: "Latency", Dimensions: [{ Name: "Route", Value: "/books" }] },
        { Namespace: namespace, MetricName: "Requests" },
      ]);
      expect(protocolsSeen).toEqual([protocol, protocol]);
    });

    it("surfaces modeled errors as the SDK's typed exceptions, @awsQueryError code included", async () => {
      const missing = await rejection(client.send(new GetDashboardCommand({ DashboardName: "other" })));
      expect(missing).toBeInstanceOf(DashboardNotFoundError);
      expect((missing as DashboardNotFoundError).message).toBe("Dashboard other does not exist");
      const negative = await rejection(
        client.send(new PutMetricDataCommand({ Namespace: namespace, MetricData: [{ MetricName: "Requests", Value: -1, Unit: "Count" }] })),
      );
      expect(negative).toBeInstanceOf(InvalidParameterValueException);
      const e = negative as InvalidParameterValueException;
      expect(e.message).toBe("The value -1 for Requests is negative");
      // The awsQuery code and fault the server sent in `x-amzn-query-error`, as the SDK exposes them.
      expect(e).toMatchObject({ Code: "InvalidParameterValue", Type: "Sender" });
      expect(e.$metadata.httpStatusCode).toBe(400);
      expect((await client.send(new GetDashboardCommand({ DashboardName: "main" }))).DashboardBody).toBe('{"widgets":[]}');
    });

    it("surfaces a constraint violation as a ValidationException naming the field", async () => {
      const error = await rejection(client.send(new ListMetricsCommand({ Namespace: ":reserved" })));
      expect(error).toBeInstanceOf(CloudWatchServiceException);
      const e = error as CloudWatchServiceException;
      expect(e.name).toBe("ValidationException");
      expect(e.message).toMatch(/Namespace/);
      expect(e.$metadata.httpStatusCode).toBe(400);
    });
  });
});

describe("@aws-sdk/client-pricing (awsJson1_1) against an Anvil server", () => {
  const schemas = schemasOf("pricing.smithy", PRICING_MODEL);
  const service = schemas.service("com.amazonaws.pricing#AWSPriceListService");
  const NotFound = errorClass(schemas.shape("com.amazonaws.pricing#NotFoundException") as StructSchema<{ Message?: string }>);
  const services = [
    { ServiceCode: "AmazonEC2", AttributeNames: ["instanceType", "location"] },
    { ServiceCode: "AmazonS3", AttributeNames: ["storageClass"] },
  ];
  const seen: { input?: Record<string, unknown>; target?: string | null } = {};
  const handlers: Record<string, Handler> = {
    async describeServices(input, context) {
      seen.input = input;
      seen.target = context.headers.get("x-amz-target");
      const start = input.NextToken === undefined ? 0 : Number(input.NextToken);
      const end = start + ((input.MaxResults as number | undefined) ?? 100);
      return { Services: services.slice(start, end), FormatVersion: "aws_v1", ...(end < services.length ? { NextToken: String(end) } : {}) };
    },
    async getAttributeValues(input) {
      const found = services.find((s) => s.ServiceCode === input.ServiceCode);
      if (!found) throw new NotFound({ Message: `no service ${String(input.ServiceCode)}` });
      return { AttributeValues: [{ Value: "m5.large" }, { Value: "t3.micro" }] };
    },
  };
  let listener: NodeListener;
  let client: PricingClient;

  beforeAll(async () => {
    listener = await serve(service, [awsJson1_1()], handlers);
    client = new PricingClient(sdkConfig(listener));
  });
  afterAll(async () => {
    client.destroy();
    await listener.close({ graceMs: 100 });
  });

  it("describes services page by page: the 1.1 target, lists of structures, tokens", async () => {
    const first = await client.send(new DescribeServicesCommand({ FormatVersion: "aws_v1", MaxResults: 1 }));
    expect(seen.target).toBe("AWSPriceListService.DescribeServices");
    expect(seen.input).toEqual({ FormatVersion: "aws_v1", MaxResults: 1 });
    expect(first.Services).toEqual([services[0]]);
    expect(first.NextToken).toBe("1");
    const second = await client.send(new DescribeServicesCommand({ MaxResults: 1, NextToken: first.NextToken }));
    expect(second.Services?.map((s) => s.ServiceCode)).toEqual(["AmazonS3"]);
    expect(second.NextToken).toBeUndefined();
  });

  it("surfaces a modeled error whose member is spelled Message as the SDK's typed NotFoundException, with its message", async () => {
    const error = await rejection(client.send(new GetAttributeValuesCommand({ ServiceCode: "AmazonNope", AttributeName: "x" })));
    expect(error).toBeInstanceOf(PricingNotFound);
    expect((error as PricingNotFound).message).toBe("no service AmazonNope");
    expect((error as PricingNotFound).$metadata.httpStatusCode).toBe(404);
    const ok = await client.send(new GetAttributeValuesCommand({ ServiceCode: "AmazonEC2", AttributeName: "instanceType" }));
    expect(ok.AttributeValues?.map((v) => v.Value)).toEqual(["m5.large", "t3.micro"]);
  });

  it("surfaces a constraint violation as a ValidationException naming the field", async () => {
    const error = await rejection(client.send(new DescribeServicesCommand({ MaxResults: 0 })));
    expect(error).toBeInstanceOf(PricingServiceException);
    expect((error as PricingServiceException).name).toBe("ValidationException");
    expect((error as PricingServiceException).message).toMatch(/MaxResults/);
    expect((error as PricingServiceException).$metadata.httpStatusCode).toBe(400);
  });
});

describe("@aws-sdk/client-sagemaker-runtime (restJson1) against an Anvil server", () => {
  const schemas = schemasOf("sagemaker-runtime.smithy", SAGEMAKER_RUNTIME_MODEL);
  const service = schemas.service("com.amazonaws.sagemakerruntime#AmazonSageMakerRuntime");
  const NoEndpoint = errorClass(schemas.shape("com.amazonaws.sagemakerruntime#ValidationError") as StructSchema<{ Message?: string }>);
  const Failed = errorClass(
    schemas.shape("com.amazonaws.sagemakerruntime#ModelError") as StructSchema<{
      Message?: string;
      OriginalStatusCode?: number;
      OriginalMessage?: string;
      LogStreamArn?: string;
    }>,
  );
  const StreamFailed = errorClass(schemas.shape("com.amazonaws.sagemakerruntime#ModelStreamError") as StructSchema<{ Message?: string; ErrorCode?: string }>);
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const seen: { input?: Record<string, unknown>; contentType?: string | null; accept?: string | null } = {};
  const endpoint = (name: unknown) => {
    if (name !== "llm-1") throw new NoEndpoint({ Message: `Endpoint ${String(name)} of account 123456789012 not found.` });
  };
  /**
   * The model: a prompt in, its words back (one part per word when streamed). "fail" fails it (a ModelError, or a
   * thrown ModelStreamError mid-stream); mid-stream, "stop" yields the union's InternalStreamFailure and "crash" throws
   * something unmodeled.
   */
  const words = (body: unknown) => new TextDecoder().decode(body as Uint8Array).split(" ");
  const handlers: Record<string, Handler> = {
    async invokeEndpoint(input, context) {
      seen.input = input;
      seen.contentType = context.headers.get("content-type");
      seen.accept = context.headers.get("accept");
      endpoint(input.EndpointName);
      if (words(input.Body).includes("fail")) {
        throw new Failed({
          Message: 'Received client error (400) from primary with message "bad prompt".',
          OriginalStatusCode: 400,
          OriginalMessage: "bad prompt",
          LogStreamArn: "arn:aws:logs:eu-west-1:123456789012:log-group:/aws/sagemaker/Endpoints/llm-1",
        });
      }
      const body =
        input.ContentType === "application/octet-stream" ? (input.Body as Uint8Array).toReversed() : utf8(JSON.stringify({ words: words(input.Body) }));
      return {
        Body: body,
        ContentType: input.ContentType === "application/octet-stream" ? "application/octet-stream" : "application/json",
        InvokedProductionVariant: "AllTraffic",
        CustomAttributes: input.CustomAttributes,
      };
    },
    async invokeEndpointWithResponseStream(input, context) {
      seen.input = input;
      seen.accept = context.headers.get("x-amzn-sagemaker-accept");
      endpoint(input.EndpointName);
      const parts = words(input.Body);
      async function* body(): AsyncGenerator<UnionValue> {
        for (const word of parts) {
          if (word === "fail") throw new StreamFailed({ Message: "the model stopped mid-answer", ErrorCode: "ModelError" });
          if (word === "stop") yield { $case: "InternalStreamFailure", value: { Message: "the stream broke" } };
          if (word === "crash") throw new Error("the disk is on fire");
          yield { $case: "PayloadPart", value: { Bytes: utf8(`${word} `) } };
        }
      }
      return { Body: body(), ContentType: "text/plain", InvokedProductionVariant: "AllTraffic" };
    },
  };
  let listener: NodeListener;
  let client: SageMakerRuntimeClient;

  beforeAll(async () => {
    listener = await serve(service, [restJson1()], handlers, { http2: "both" });
    client = new SageMakerRuntimeClient(sdkConfig(listener));
  });
  afterAll(async () => {
    client.destroy();
    await listener.close({ graceMs: 100 });
  });

  it("invokes an endpoint: a blob payload both ways, media types and attributes in headers", async () => {
    const out = await client.send(
      new InvokeEndpointCommand({
        EndpointName: "llm-1",
        Body: utf8("hello there"),
        ContentType: "text/plain",
        Accept: "application/json",
        CustomAttributes: "trace=1; c000b4f9",
        TargetVariant: "blue",
      }),
    );
    // The blob arrives as a plain Uint8Array (not the Buffer Node read it into).
    expect((seen.input?.Body as Uint8Array | undefined)?.constructor).toBe(Uint8Array);
    expect(seen.input).toEqual({
      EndpointName: "llm-1",
      Body: utf8("hello there"),
      ContentType: "text/plain",
      Accept: "application/json",
      CustomAttributes: "trace=1; c000b4f9",
      TargetVariant: "blue",
    });
    expect([seen.contentType, seen.accept]).toEqual(["text/plain", "application/json"]);
    expect(JSON.parse(new TextDecoder().decode(out.Body))).toEqual({ words: ["hello", "there"] });
    expect(out.ContentType).toBe("application/json");
    expect(out.InvokedProductionVariant).toBe("AllTraffic");
    expect(out.CustomAttributes).toBe("trace=1; c000b4f9");
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const binary = await client.send(new InvokeEndpointCommand({ EndpointName: "llm-1", Body: bytes, ContentType: "application/octet-stream" }));
    expect(new Uint8Array(binary.Body)).toEqual(bytes.toReversed());
    expect(binary.CustomAttributes).toBeUndefined();
  });

  it("surfaces modeled errors as the SDK's typed ValidationError and ModelError, with their members", async () => {
    const missing = await rejection(client.send(new InvokeEndpointCommand({ EndpointName: "llm-2", Body: utf8("hi") })));
    expect(missing).toBeInstanceOf(SageMakerValidationError);
    expect((missing as SageMakerValidationError).message).toBe("Endpoint llm-2 of account 123456789012 not found.");
    expect((missing as SageMakerValidationError).$metadata.httpStatusCode).toBe(400);
    const failed = await rejection(client.send(new InvokeEndpointCommand({ EndpointName: "llm-1", Body: utf8("please fail") })));
    expect(failed).toBeInstanceOf(ModelError);
    const e = failed as ModelError;
    expect(e.message).toBe('Received client error (400) from primary with message "bad prompt".');
    expect(e).toMatchObject({
      OriginalStatusCode: 400,
      OriginalMessage: "bad prompt",
      LogStreamArn: "arn:aws:logs:eu-west-1:123456789012:log-group:/aws/sagemaker/Endpoints/llm-1",
    });
    expect(e.$metadata.httpStatusCode).toBe(424);
  });

  it("surfaces an EndpointName breaking its @pattern or @length as a ValidationException (400) naming it", async () => {
    for (const EndpointName of ["-llm", "_llm", "x".repeat(64)]) {
      const error = await rejection(client.send(new InvokeEndpointCommand({ EndpointName, Body: utf8("hi") })));
      expect(error).toBeInstanceOf(SageMakerRuntimeServiceException);
      const e = error as SageMakerRuntimeServiceException;
      expect(e.name).toBe("ValidationException");
      expect(e.message).toMatch(/EndpointName/);
      expect(e.$metadata.httpStatusCode).toBe(400);
    }
    // A Smithy @pattern is a search, not a whole match, and this one has no "$": "llm_1" passes it and reaches the handler.
    const unanchored = await rejection(client.send(new InvokeEndpointCommand({ EndpointName: "llm_1", Body: utf8("hi") })));
    expect(unanchored).toBeInstanceOf(SageMakerValidationError);
    expect(seen.input?.EndpointName).toBe("llm_1");
  });

  it("streams the answer as PayloadPart events, each with its bytes", async () => {
    const out = await client.send(
      new InvokeEndpointWithResponseStreamCommand({ EndpointName: "llm-1", Body: utf8("one two three"), ContentType: "text/plain", Accept: "text/plain" }),
    );
    expect(seen.accept).toBe("text/plain");
    expect(out.ContentType).toBe("text/plain");
    expect(out.InvokedProductionVariant).toBe("AllTraffic");
    const parts: string[] = [];
    for await (const event of out.Body!) parts.push(new TextDecoder().decode(event.PayloadPart?.Bytes));
    expect(parts).toEqual(["one ", "two ", "three "]);
  });

  /** The parts of a streamed answer up to the error that ends it. */
  async function partsThenError(prompt: string): Promise<{ parts: string[]; error: unknown }> {
    const out = await client.send(new InvokeEndpointWithResponseStreamCommand({ EndpointName: "llm-1", Body: utf8(prompt) }));
    const parts: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of out.Body!) parts.push(new TextDecoder().decode(event.PayloadPart?.Bytes));
      })(),
    );
    return { parts, error };
  }

  it("ends a stream with a modeled error event, which the SDK throws as its typed exception", async () => {
    // The handler's stream throws the modeled error ...
    const thrown = await partsThenError("one fail three");
    expect(thrown.parts).toEqual(["one "]);
    expect(thrown.error).toBeInstanceOf(ModelStreamError);
    expect((thrown.error as ModelStreamError).message).toBe("the model stopped mid-answer");
    expect((thrown.error as ModelStreamError).ErrorCode).toBe("ModelError");
    // ... or yields the union's error variant.
    const yielded = await partsThenError("one stop three");
    expect(yielded.parts).toEqual(["one "]);
    expect(yielded.error).toBeInstanceOf(InternalStreamFailure);
    expect((yielded.error as InternalStreamFailure).message).toBe("the stream broke");
    expect((yielded.error as InternalStreamFailure).$fault).toBe("server");
    // An unmodeled failure ends it as an InternalFailure that says nothing more.
    const crashed = await partsThenError("one crash three");
    expect(crashed.parts).toEqual(["one "]);
    expect(crashed.error).toMatchObject({ name: "InternalFailure", message: "Internal failure" });
    const before = await rejection(client.send(new InvokeEndpointWithResponseStreamCommand({ EndpointName: "llm-9", Body: utf8("hi") })));
    expect(before).toBeInstanceOf(SageMakerValidationError);
    expect((before as SageMakerValidationError).message).toBe("Endpoint llm-9 of account 123456789012 not found.");
  });
});

describe("@aws-sdk/client-apigatewaymanagementapi (restJson1) against an Anvil server", () => {
  const schemas = schemasOf("apigatewaymanagementapi.smithy", APIGATEWAY_MANAGEMENT_MODEL);
  const service = schemas.service("com.amazonaws.apigatewaymanagementapi#ApiGatewayManagementApi");
  const Gone = errorClass(schemas.shape("com.amazonaws.apigatewaymanagementapi#GoneException") as StructSchema<Record<string, never>>);
  // Connection ids are base64 and end in "=", which a label has to percent-encode.
  const id = "L0SM9cOFvHcCIhw=";
  const connections = new Map([[id, { connectedAt: new Date("2024-05-01T10:20:30.125Z"), sent: [] as Uint8Array[] }]]);
  const connection = (connectionId: unknown) => {
    const found = connections.get(connectionId as string);
    if (!found) throw new Gone({});
    return found;
  };
  const handlers: Record<string, Handler> = {
    async postToConnection(input) {
      connection(input.ConnectionId).sent.push(new Uint8Array(input.Data as Uint8Array));
      return {};
    },
    async getConnection(input) {
      const { connectedAt } = connection(input.ConnectionId);
      return { ConnectedAt: connectedAt, LastActiveAt: new Date(connectedAt.getTime() + 61_000), Identity: { SourceIp: "192.0.2.7", UserAgent: "wscat/5.2" } };
    },
    async deleteConnection(input) {
      connection(input.ConnectionId);
      connections.delete(input.ConnectionId as string);
      return {};
    },
  };
  let listener: NodeListener;
  let client: ApiGatewayManagementApiClient;

  beforeAll(async () => {
    listener = await serve(service, [restJson1()], handlers, { http2: "both" });
    client = new ApiGatewayManagementApiClient(sdkConfig(listener));
  });
  afterAll(async () => {
    client.destroy();
    await listener.close({ graceMs: 100 });
  });

  it("posts to a connection: a blob payload, an empty one included, under a percent-encoded label", async () => {
    const data = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d, 0, 255]);
    const out = await client.send(new PostToConnectionCommand({ ConnectionId: id, Data: data }));
    expect(out.$metadata.httpStatusCode).toBe(200);
    await client.send(new PostToConnectionCommand({ ConnectionId: id, Data: new Uint8Array(0) }));
    expect(connections.get(id)?.sent).toEqual([data, new Uint8Array(0)]);
  });

  it("gets a connection: date-time timestamps under @jsonName, a nested structure", async () => {
    const out = await client.send(new GetConnectionCommand({ ConnectionId: id }));
    expect(out.ConnectedAt).toEqual(new Date("2024-05-01T10:20:30.125Z"));
    expect(out.LastActiveAt).toEqual(new Date("2024-05-01T10:21:31.125Z"));
    expect(out.Identity).toEqual({ SourceIp: "192.0.2.7", UserAgent: "wscat/5.2" });
  });

  it("surfaces a Data over its @length as a ValidationException (400) naming it", async () => {
    const error = await rejection(client.send(new PostToConnectionCommand({ ConnectionId: id, Data: new Uint8Array(131_073) })));
    expect(error).toBeInstanceOf(ApiGatewayManagementApiServiceException);
    const e = error as ApiGatewayManagementApiServiceException;
    expect(e.name).toBe("ValidationException");
    expect(e.message).toMatch(/Data/);
    expect(e.$metadata.httpStatusCode).toBe(400);
  });

  it("deletes a connection (204), after which every call is the SDK's typed GoneException (410)", async () => {
    const out = await client.send(new DeleteConnectionCommand({ ConnectionId: id }));
    expect(out.$metadata.httpStatusCode).toBe(204);
    for (const command of [
      new GetConnectionCommand({ ConnectionId: id }),
      new PostToConnectionCommand({ ConnectionId: id, Data: new Uint8Array([1]) }),
      new DeleteConnectionCommand({ ConnectionId: id }),
    ]) {
      const error = await rejection(client.send(command as GetConnectionCommand));
      expect(error).toBeInstanceOf(GoneException);
      expect((error as GoneException).name).toBe("GoneException");
      expect((error as GoneException).$fault).toBe("client");
      expect((error as GoneException).$metadata.httpStatusCode).toBe(410);
    }
  });
});

describe("@aws-sdk/client-transcribe-streaming (restJson1, HTTP/2, a signed event stream in and out) against an Anvil server", () => {
  const schemas = schemasOf("transcribe-streaming.smithy", TRANSCRIBE_STREAMING_MODEL);
  const service = schemas.service("com.amazonaws.transcribestreaming#Transcribe");
  const Overloaded = errorClass(schemas.shape("com.amazonaws.transcribestreaming#LimitExceededException") as StructSchema<{ Message?: string }>);
  const text = new TextDecoder();
  const audio = (words: string) => new TextEncoder().encode(words);
  /** What the handler read, in order: each audio chunk's text, or a configuration event's channels. */
  let heard: string[] = [];
  /** Resolved when the handler has answered the first chunk: the client holds its next chunk until then (full duplex). */
  let answeredFirst: () => void = () => {};
  let firstAnswered = new Promise<void>((resolve) => (answeredFirst = resolve));

  /** "Speech recognition": each audio chunk is text; a partial result per chunk, then the whole transcript. "overload" fails mid-stream. */
  const handlers: Record<string, Handler> = {
    async startStreamTranscription(input) {
      const events = input.AudioStream as AsyncIterable<UnionValue>;
      async function* transcripts(): AsyncGenerator<UnionValue> {
        const said: string[] = [];
        for await (const event of events) {
          if (event.$case === "ConfigurationEvent") {
            heard.push(`channels ${JSON.stringify(event.value)}`);
            continue;
          }
          if (event.$case !== "AudioEvent") continue;
          const words = text.decode((event.value as { AudioChunk: Uint8Array }).AudioChunk);
          heard.push(words);
          if (words === "overload") throw new Overloaded({ Message: "You have exceeded the maximum number of concurrent transcription streams." });
          said.push(words);
          yield result(said.join(" "), true, said.length);
          answeredFirst();
        }
        yield result(said.join(" "), false, said.length);
      }
      return {
        RequestId: "8a7b6c5d-0000-4000-8000-000000000001",
        SessionId: input.SessionId ?? "00000000-0000-4000-8000-000000000000",
        LanguageCode: input.LanguageCode,
        MediaSampleRateHertz: input.MediaSampleRateHertz,
        MediaEncoding: input.MediaEncoding,
        TranscriptResultStream: transcripts(),
      };
    },
  };
  const result = (transcript: string, partial: boolean, n: number): UnionValue => ({
    $case: "TranscriptEvent",
    value: {
      Transcript: {
        Results: [{ ResultId: "r-1", StartTime: 0, EndTime: n * 0.5, IsPartial: partial, Alternatives: [{ Transcript: transcript }], ChannelId: "ch_0" }],
      },
    },
  });

  let listener: NodeListener;
  let client: TranscribeStreamingClient;
  beforeAll(async () => {
    // The SDK speaks HTTP/2 to Transcribe Streaming (its default handler in Node): cleartext HTTP/2 with prior
    // knowledge here, which the listener serves beside HTTP/1.1 on its port.
    listener = await serve(service, [restJson1()], handlers, { http2: "both" });
    client = new TranscribeStreamingClient(sdkConfig(listener));
  });
  afterAll(async () => {
    client.destroy();
    await listener.close();
  });

  async function* speak(chunks: readonly string[], waitAfterFirst = false): AsyncGenerator<AudioStream> {
    yield {
      ConfigurationEvent: {
        ChannelDefinitions: [
          { ChannelId: 0, ParticipantRole: "AGENT" },
          { ChannelId: 1, ParticipantRole: "CUSTOMER" },
        ],
      },
    };
    for (const [i, chunk] of chunks.entries()) {
      yield { AudioEvent: { AudioChunk: audio(chunk) } };
      if (i === 0 && waitAfterFirst) await firstAnswered;
    }
  }

  it("streams audio in and transcripts out at once: the first partial result arrives before the rest of the audio is sent", async () => {
    heard = [];
    firstAnswered = new Promise<void>((resolve) => (answeredFirst = resolve));
    const out = await client.send(
      new StartStreamTranscriptionCommand({
        LanguageCode: "en-GB",
        MediaSampleRateHertz: 16_000,
        MediaEncoding: "pcm",
        SessionId: "0f3c2a1b-1234-4abc-8def-0123456789ab",
        EnablePartialResultsStabilization: true,
        AudioStream: speak(["the quick", "brown fox", "jumps"], true),
      }),
    );
    expect([out.RequestId, out.SessionId, out.LanguageCode, out.MediaSampleRateHertz, out.MediaEncoding]).toEqual([
      "8a7b6c5d-0000-4000-8000-000000000001",
      "0f3c2a1b-1234-4abc-8def-0123456789ab",
      "en-GB",
      16_000,
      "pcm",
    ]);
    const results: [string | undefined, boolean | undefined][] = [];
    for await (const event of out.TranscriptResultStream!) {
      for (const r of event.TranscriptEvent?.Transcript?.Results ?? []) results.push([r.Alternatives?.[0]?.Transcript, r.IsPartial]);
    }
    expect(results).toEqual([
      ["the quick", true],
      ["the quick brown fox", true],
      ["the quick brown fox jumps", true],
      ["the quick brown fox jumps", false],
    ]);
    // Every event came inside the SDK's signed envelope, and was opened: the handler read the events as sent.
    expect(heard).toEqual([
      `channels {"ChannelDefinitions":[{"ChannelId":0,"ParticipantRole":"AGENT"},{"ChannelId":1,"ParticipantRole":"CUSTOMER"}]}`,
      "the quick",
      "brown fox",
      "jumps",
    ]);
  });

  it("ends the transcript stream with the SDK's typed exception when the handler's stream fails with a modeled error", async () => {
    heard = [];
    const out = await client.send(
      new StartStreamTranscriptionCommand({ MediaSampleRateHertz: 8_000, MediaEncoding: "flac", AudioStream: speak(["hello", "overload", "never heard"]) }),
    );
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of out.TranscriptResultStream!) seen.push(event.TranscriptEvent?.Transcript?.Results?.[0]?.Alternatives?.[0]?.Transcript ?? "?");
      })(),
    );
    expect(seen).toEqual(["hello"]);
    expect(error).toBeInstanceOf(LimitExceededException);
    expect((error as LimitExceededException).message).toBe("You have exceeded the maximum number of concurrent transcription streams.");
  });

  it("checks the signature of every event the SDK sends: an event changed on the way fails the stream there", async () => {
    heard = [];
    // The SDK's HTTP/2 handler, with the payload of the third signed envelope (the second audio event) changed in transit.
    class Tampering extends NodeHttp2Handler {
      override handle(request: Parameters<NodeHttp2Handler["handle"]>[0], options?: Parameters<NodeHttp2Handler["handle"]>[1]) {
        const original = request.body as AsyncIterable<Uint8Array>;
        request.body = Readable.from(
          (async function* () {
            let n = 0;
            for await (const chunk of original) {
              for (const frame of await frames(chunk)) {
                if (++n !== 3) {
                  yield frame;
                  continue;
                }
                const envelope = decodeEventMessage(frame);
                const inner = decodeEventMessage(envelope.body);
                const changed = encodeEventMessage({ ...inner, body: audio("jumped") });
                yield encodeEventMessage({ ...envelope, body: changed });
              }
            }
          })(),
        );
        return super.handle(request, options);
      }
    }
    const tampering = new TranscribeStreamingClient({ ...sdkConfig(listener), requestHandler: new Tampering() });
    try {
      const out = await tampering.send(
        new StartStreamTranscriptionCommand({ MediaSampleRateHertz: 16_000, MediaEncoding: "pcm", AudioStream: speak(["the quick", "brown fox", "jumps"]) }),
      );
      const seen: string[] = [];
      await rejection(
        (async () => {
          for await (const event of out.TranscriptResultStream!)
            seen.push(event.TranscriptEvent?.Transcript?.Results?.[0]?.Alternatives?.[0]?.Transcript ?? "?");
        })(),
      );
      // The configuration event and the first audio event were signed as sent; the changed one never reached the handler.
      expect(heard).toEqual([expect.stringMatching(/^channels /), "the quick"]);
      expect(seen).toEqual(["the quick"]);
    } finally {
      tampering.destroy();
    }
  });

  it("takes the event stream Anvil's own client signs (sigv4() signs each event, as the SDK does)", async () => {
    heard = [];
    const transport = http2Transport();
    const anvil = createClient(service, {
      endpoint: listener.url,
      protocols: [restJson1()],
      transport,
      retry: { maxAttempts: 1 },
      auth: [sigv4({ region: "eu-west-1", credentials: CREDENTIALS })],
    }) as unknown as {
      startStreamTranscription(input: object): Promise<{ TranscriptResultStream: AsyncIterable<UnionValue> }>;
    };
    async function* audioEvents(): AsyncGenerator<UnionValue> {
      for (const words of ["lazy", "dog"]) yield { $case: "AudioEvent", value: { AudioChunk: audio(words) } };
    }
    try {
      const out = await anvil.startStreamTranscription({ MediaSampleRateHertz: 16_000, MediaEncoding: "pcm", AudioStream: audioEvents() });
      const transcripts: string[] = [];
      for await (const event of out.TranscriptResultStream) {
        const results = (event.value as { Transcript: { Results: { Alternatives: { Transcript: string }[]; IsPartial: boolean }[] } }).Transcript.Results;
        for (const r of results) if (!r.IsPartial) transcripts.push(r.Alternatives[0]!.Transcript);
      }
      expect(transcripts).toEqual(["lazy dog"]);
      expect(heard).toEqual(["lazy", "dog"]);
    } finally {
      await transport.close();
    }
  });

  it("refuses a sample rate out of @range with a ValidationException (400) naming it, before any audio is read", async () => {
    heard = [];
    const error = await rejection(
      client.send(new StartStreamTranscriptionCommand({ MediaSampleRateHertz: 4_000, MediaEncoding: "pcm", AudioStream: speak(["unheard"]) })),
    );
    expect(error).toBeInstanceOf(TranscribeStreamingServiceException);
    const e = error as TranscribeStreamingServiceException;
    expect([e.name, e.$metadata.httpStatusCode]).toEqual(["ValidationException", 400]);
    expect(e.message).toMatch(/MediaSampleRateHertz/);
    expect(heard).toEqual([]);
  });
});

describe("anvil serve --fake --sigv4: the AWS SDK against a fake that verifies signatures", () => {
  const { model } = loadModel({ sources: [{ file: "dynamodb.smithy", text: DYNAMODB_MODEL }] });
  let serve: FakeServe;
  let url: string;
  beforeAll(async () => {
    serve = await startFakeServe(model, { port: 0, docs: false, credentials: { sigv4: [CREDENTIALS] } });
    url = serve.listening[0]!.url;
  });
  afterAll(() => serve.close(0));

  it("answers a call signed with the access key it was given, and says so in its auth state", async () => {
    expect(serve.listening[0]!.auth).toEqual({ declared: ["aws.auth#sigv4"], enforced: ["aws.auth#sigv4"] });
    const client = new DynamoDBClient({ endpoint: url, region: "us-west-2", credentials: CREDENTIALS, maxAttempts: 1 });
    try {
      const out = await client.send(new ListTablesCommand({}));
      expect(out.$metadata.httpStatusCode).toBe(200);
    } finally {
      client.destroy();
    }
  });

  it("refuses a call signed with another key, or unsigned", async () => {
    const client = new DynamoDBClient({ endpoint: url, region: "us-west-2", credentials: { accessKeyId: "AKIDOTHER", secretAccessKey: "x" }, maxAttempts: 1 });
    try {
      const error = await rejection(client.send(new ListTablesCommand({})));
      expect([(error as DynamoDBServiceException).name, (error as DynamoDBServiceException).$metadata.httpStatusCode]).toEqual([
        "UnauthenticatedException",
        401,
      ]);
    } finally {
      client.destroy();
    }
    const unsigned = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-amz-json-1.0", "x-amz-target": "DynamoDB_20120810.ListTables" },
      body: "{}",
    });
    expect([unsigned.status, unsigned.headers.get("www-authenticate")]).toEqual([401, "AWS4-HMAC-SHA256"]);
    await unsigned.arrayBuffer();
  });
});
