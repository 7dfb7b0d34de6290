/**
 * Amazon Machine Learning's SDK customization: `Predict` goes to the
 * real-time endpoint the caller names in its `PredictEndpoint` member (an
 * endpoint the service generated for the model), not to the client's endpoint.
 */
import { type HttpRequest, type RequestCustomization, SerializationError } from "@anvil/core";
import { sdkIdOf } from "./sdk-id.js";

/** Sends `Predict` to the host of its `PredictEndpoint` URL. */
export const machineLearningPredictEndpoint: RequestCustomization = {
  id: "aws.machinelearning#predict-endpoint",
  appliesTo: (service) => sdkIdOf(service) === "Machine Learning",
  modifyRequest(request, input, { operation }): HttpRequest {
    if (operation.name !== "Predict") return request;
    const endpoint = (input as { PredictEndpoint?: unknown } | undefined)?.PredictEndpoint;
    if (typeof endpoint !== "string" || endpoint === "") return request;
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch (cause) {
      throw new SerializationError(`encode ${operation.name}: PredictEndpoint is not a URL: ${JSON.stringify(endpoint)}`, {
        path: "/PredictEndpoint",
        cause,
      });
    }
    return { ...request, host: url.host };
  },
};
