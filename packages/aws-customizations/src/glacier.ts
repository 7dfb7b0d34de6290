/**
 * Amazon Glacier's SDK customizations: every request carries the API version
 * in `X-Amz-Glacier-Version`; an `accountId` left out or empty means the
 * caller's own account (`-`); and a request with a body carries its SHA-256
 * (`X-Amz-Content-Sha256`) and SHA-256 tree hash (`X-Amz-Sha256-Tree-Hash`)
 * unless the caller gave them.
 */
import type { HttpRequest, RequestCustomization, ServiceSchema } from "@anvil/core";
import { readBody } from "@anvil/core/protocol";
import { sdkIdOf } from "./sdk-id.js";
import { sha256, sha256TreeHash, toHex } from "./sha256.js";

const isGlacier = (service: ServiceSchema): boolean => sdkIdOf(service) === "Glacier";

/** The account Glacier reads as "the account of the caller's credentials". */
export const GLACIER_CURRENT_ACCOUNT = "-";

/** Sets `X-Amz-Glacier-Version` to the service's version on every request. */
export const glacierVersionHeader: RequestCustomization = {
  id: "aws.glacier#version-header",
  appliesTo: isGlacier,
  modifyRequest(request, _input, { call }): HttpRequest {
    const headers = new Headers(request.headers);
    headers.set("x-amz-glacier-version", call.service.version);
    return { ...request, headers };
  },
};

/** Fills an `accountId` member that is absent, null or empty with {@link GLACIER_CURRENT_ACCOUNT}. */
export const glacierAccountId: RequestCustomization = {
  id: "aws.glacier#account-id",
  appliesTo: isGlacier,
  modifyInput(input, { operation }): unknown {
    if (!operation.input.members.some((m) => m.name === "accountId")) return input;
    const value = (input ?? {}) as Record<string, unknown>;
    const accountId = value.accountId;
    if (accountId !== undefined && accountId !== null && accountId !== "") return input;
    return { ...value, accountId: GLACIER_CURRENT_ACCOUNT };
  },
};

/** Adds the body's SHA-256 and SHA-256 tree hash headers (hex) when the request has a body and not the header. */
export const glacierChecksums: RequestCustomization = {
  id: "aws.glacier#checksums",
  appliesTo: isGlacier,
  async modifyRequest(request: HttpRequest): Promise<HttpRequest> {
    if (request.body === undefined) return request;
    const needContent = !request.headers.has("x-amz-content-sha256");
    const needTree = !request.headers.has("x-amz-sha256-tree-hash");
    if (!needContent && !needTree) return request;
    // A streamed body is read once here; the request then carries the bytes.
    const body = await readBody(request.body);
    const headers = new Headers(request.headers);
    if (needContent) headers.set("x-amz-content-sha256", toHex(await sha256(body)));
    if (needTree) headers.set("x-amz-sha256-tree-hash", toHex(await sha256TreeHash(body)));
    return { ...request, headers, body };
  },
};

/** Every Glacier customization, in the order they run. */
export const GLACIER_CUSTOMIZATIONS: readonly RequestCustomization[] = Object.freeze([glacierAccountId, glacierVersionHeader, glacierChecksums]);
